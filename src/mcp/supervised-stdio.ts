import { type ChildProcessByStdio, spawn } from "node:child_process";
import { type Duplex, PassThrough, type Readable, type Writable } from "node:stream";
import { getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { SUPERVISOR_SOURCE } from "./supervisor-source.js";

/** What a supervised stdio server runs, and how long each shutdown step may take. */
export interface SupervisedStdioOptions {
  command: string;
  args?: string[];
  /** On top of the SDK's safe minimum (PATH, HOME, ...); the parent's is not inherited. */
  env?: Record<string, string>;
  cwd?: string;
  /** Wait after closing stdin, and again after SIGTERM, before the next step. */
  graceMs: number;
}

type Supervisor = ChildProcessByStdio<Writable, Readable, Readable>;

/**
 * An MCP stdio transport whose server can never outlive its client. The server runs in its
 * own process group under a small supervisor process (see `SUPERVISOR_SOURCE`) that ends the
 * whole group, grandchildren included, when this process closes the transport, exits, or is
 * killed with SIGKILL. `close()` closes the server's stdin, lets the supervisor escalate
 * (SIGTERM, then SIGKILL to the group) and returns within `2 * graceMs + 3s` whatever the
 * server does.
 *
 * @example
 * const transport = new SupervisedStdioTransport({ command: "sh", args: ["-c", "node server.js"], graceMs: 2000 });
 * await new Client({ name: "delve", version: "1" }).connect(transport);
 */
export class SupervisedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** The server's stderr (and the supervisor's own messages, such as a spawn error). */
  readonly stderr = new PassThrough();
  private readonly options: SupervisedStdioOptions;
  private readonly buffer = new ReadBuffer();
  private supervisor: Supervisor | undefined;
  private exited: Promise<void> | undefined;
  private group: number | undefined;
  private finished = false;

  constructor(options: SupervisedStdioOptions) {
    this.options = options;
  }

  /** The server's pid, which is also its process group id; undefined before start. */
  get pid(): number | undefined {
    return this.group;
  }

  /** Starts the supervisor, hands it the server spec and waits until the server runs. */
  async start(): Promise<void> {
    if (this.supervisor) throw new Error("SupervisedStdioTransport already started.");
    const { command, args = [], env, cwd, graceMs } = this.options;
    const child = spawn(process.execPath, ["-e", SUPERVISOR_SOURCE, String(graceMs)], {
      stdio: ["pipe", "pipe", "pipe", "pipe"],
      // Its own group: a signal to this process's group (a terminal's Ctrl-C, a test
      // runner's kill) cannot take the supervisor down and leave the server behind.
      detached: true,
      env: {},
    }) as unknown as Supervisor;
    this.supervisor = child;
    this.exited = new Promise((resolve) => child.once("exit", () => resolve()));
    child.once("exit", () => this.finishAfterOutput(child));
    child.stderr.pipe(this.stderr, { end: false });
    child.stdin.on("error", (error) => this.onerror?.(error));
    child.stdout.on("data", (chunk: Buffer) => this.receive(chunk));
    const control = child.stdio[3] as unknown as Duplex;
    control.on("error", () => {});
    await new Promise<void>((resolve, reject) => {
      let reply = "";
      child.once("error", reject);
      child.once("exit", () => reject(new Error(`spawn ${command}: the supervisor exited`)));
      control.on("data", (chunk: Buffer) => {
        reply += chunk.toString("utf8");
        const end = reply.indexOf("\n");
        if (end < 0) return;
        const answer = JSON.parse(reply.slice(0, end));
        if (typeof answer.pid === "number") {
          this.group = answer.pid;
          resolve();
        } else reject(new Error(answer.error ?? `spawn ${command} failed`));
      });
      const spec = { command, args, cwd, env: { ...getDefaultEnvironment(), ...env } };
      control.write(`${JSON.stringify(spec)}\n`);
    });
  }

  /** Sends one JSON-RPC message on the server's stdin. */
  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.supervisor?.stdin;
    if (!stdin || this.finished) throw new Error("Not connected");
    if (!stdin.write(serializeMessage(message))) {
      await new Promise<void>((resolve) => stdin.once("drain", () => resolve()));
    }
  }

  /** Ends the server's process group and returns once it is gone (bounded, see the class). */
  async close(): Promise<void> {
    const child = this.supervisor;
    if (!child || this.finished) return;
    child.stdin.end();
    (child.stdio[3] as unknown as Duplex).end();
    const limit = this.options.graceMs * 2 + 2000;
    if (!(await settlesWithin(this.exited!, limit))) {
      // The supervisor itself is stuck: do its job.
      for (const pid of [this.group && -this.group, child.pid]) {
        if (pid) killQuietly(pid, "SIGKILL");
      }
      await settlesWithin(this.exited!, 1000);
    }
    this.finish(child);
  }

  private receive(chunk: Buffer): void {
    try {
      this.buffer.append(chunk);
      for (;;) {
        let message: JSONRPCMessage | null;
        try {
          message = this.buffer.readMessage();
        } catch (error) {
          this.onerror?.(error as Error);
          continue;
        }
        if (message === null) break;
        this.onmessage?.(message);
      }
    } catch (error) {
      this.onerror?.(error as Error);
      void this.close();
    }
  }

  // What the server wrote just before the end may still be in the pipe: read it first.
  private finishAfterOutput(child: Supervisor): void {
    if (child.stdout.readableEnded) {
      this.finish(child);
      return;
    }
    const timer = setTimeout(() => this.finish(child), 200);
    child.stdout.once("end", () => {
      clearTimeout(timer);
      this.finish(child);
    });
  }

  private finish(child: Supervisor): void {
    if (this.finished) return;
    this.finished = true;
    // Nothing of this transport may keep the event loop alive now.
    for (const stream of [child.stdin, child.stdout, child.stderr, child.stdio[3] as any]) {
      stream?.destroy?.();
    }
    this.buffer.clear();
    this.onclose?.();
  }
}

function settlesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    void promise.then(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

function killQuietly(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // Already gone.
  }
}
