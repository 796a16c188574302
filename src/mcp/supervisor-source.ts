/**
 * The stdio server supervisor, run as `node -e SUPERVISOR_SOURCE <graceMs>`. It is its own
 * process group and starts the server in another (so `sh -c "node ..."` and everything the
 * server starts share one group), passing its stdin, stdout and stderr straight through.
 * Fd 3 is a pipe to the parent: the server spec comes in as one JSON line, `{"pid":N}` or
 * `{"error":"..."}` goes back. When that pipe closes (the parent called close(), exited, or
 * was killed with SIGKILL) or the server exits, the supervisor ends the whole group: it
 * waits `graceMs` for the server to leave on its own (its stdin closed too), sends SIGTERM
 * to the group, waits `graceMs` more, then SIGKILL, and exits once the group is empty.
 */
export const SUPERVISOR_SOURCE = String.raw`
"use strict";
const { spawn } = require("node:child_process");
const fs = require("node:fs");
const net = require("node:net");
const grace = Number(process.argv[1]) || 2000;
const control = new net.Socket({ fd: 3, readable: true, writable: true });
let group;
let server;
let stopping = false;
let exitCode = 0;
let input = "";

// Live members of the group; zombies do not count (nobody may ever reap them).
function members() {
  try {
    let live = 0;
    for (const name of fs.readdirSync("/proc")) {
      if (!/^[0-9]+$/.test(name)) continue;
      let stat;
      try { stat = fs.readFileSync("/proc/" + name + "/stat", "utf8"); } catch { continue; }
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) === group && fields[0] !== "Z") live++;
    }
    return live;
  } catch {
    try { process.kill(-group, 0); return 1; } catch (e) { return e.code === "EPERM" ? 1 : 0; }
  }
}
function signalGroup(sig) { try { process.kill(-group, sig); } catch {} }
function emptyWithin(ms) {
  return new Promise((resolve) => {
    const end = Date.now() + ms;
    const check = () => {
      if (members() === 0) return resolve(true);
      if (Date.now() >= end) return resolve(false);
      setTimeout(check, 25);
    };
    check();
  });
}
async function stop(waitFirst) {
  if (stopping) return;
  stopping = true;
  if (group !== undefined) {
    if (!(waitFirst && (await emptyWithin(grace)))) {
      signalGroup("SIGTERM");
      if (!(await emptyWithin(grace))) {
        signalGroup("SIGKILL");
        await emptyWithin(1000);
      }
    }
  }
  process.exit(exitCode);
}
for (const sig of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(sig, () => stop(false));
// Whatever goes wrong here, the group must not outlive the supervisor.
process.on("uncaughtException", () => {
  if (group !== undefined) signalGroup("SIGKILL");
  process.exit(70);
});
process.stderr.on("error", () => {});
control.on("error", () => stop(true));
control.on("end", () => stop(true));
control.on("close", () => stop(true));
control.on("data", (chunk) => {
  if (server) return;
  input += chunk;
  const end = input.indexOf("\n");
  if (end < 0) return;
  const spec = JSON.parse(input.slice(0, end));
  server = spawn(spec.command, spec.args, {
    cwd: spec.cwd, env: spec.env, stdio: "inherit", detached: true,
  });
  server.on("spawn", () => {
    group = server.pid;
    control.write(JSON.stringify({ pid: server.pid }) + "\n");
  });
  server.on("error", (error) => {
    control.write(JSON.stringify({ error: String(error && error.message) }) + "\n");
    exitCode = 127;
    stop(false);
  });
  server.on("exit", (code, sig) => {
    exitCode = code === null ? 128 + (require("node:os").constants.signals[sig] || 0) : code;
    stop(false);
  });
});
`;
