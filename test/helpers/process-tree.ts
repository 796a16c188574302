import fs from "node:fs";

/** Parent pid and state of a process from /proc, or undefined when it is gone. */
function statOf(pid: number): { ppid: number; state: string } | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { state: fields[0]!, ppid: Number(fields[1]) };
  } catch {
    return undefined;
  }
}

/**
 * The live descendants of `root` (default: this process), by a walk of /proc; zombies
 * count as gone. A child process a run left behind shows up here.
 */
export function liveDescendants(root = process.pid): number[] {
  const children = new Map<number, number[]>();
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const stat = statOf(Number(name));
    if (!stat || stat.state === "Z") continue;
    const list = children.get(stat.ppid) ?? [];
    list.push(Number(name));
    children.set(stat.ppid, list);
  }
  const found: number[] = [];
  const queue = [...(children.get(root) ?? [])];
  while (queue.length) {
    const pid = queue.shift()!;
    found.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return found;
}

/** Waits (up to `ms`) until `pids` have all ended; returns those still alive. */
export async function settledAlive(pids: () => number[], ms = 5_000): Promise<number[]> {
  const end = Date.now() + ms;
  let alive = pids();
  while (alive.length && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 25));
    alive = pids();
  }
  return alive;
}
