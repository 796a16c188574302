const SIGNALS: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];
// Signal targets: a pid, or minus a process group id.
const live = new Set<number>();
let installed = false;

/**
 * Remembers a stdio server's pid so it cannot outlive this process: on exit (normal, via
 * `process.exit`, or after an uncaught error) and on SIGINT / SIGTERM / SIGHUP, every child
 * still registered gets SIGTERM (its whole process group when `group` is true). The hooks
 * exist only while a child is alive, and a signal this module caught is raised again when
 * nobody else listens for it, so the process still dies the way it would have. (SIGKILL
 * cannot be caught: then the server's supervisor sees its pipe to us close and ends it.)
 *
 * @example
 * const release = trackChild(transport.pid);
 * // ... when the child has exited:
 * release();
 */
export function trackChild(pid: number, group = false): () => void {
  const target = group ? -pid : pid;
  live.add(target);
  install();
  return () => {
    live.delete(target);
    if (live.size === 0) uninstall();
  };
}

function killAll(): void {
  for (const pid of live) {
    try {
      process.kill(pid, "SIGTERM");
    } catch {
      // Already gone.
    }
  }
  live.clear();
}

function onExit(): void {
  killAll();
}

function onSignal(signal: NodeJS.Signals): void {
  killAll();
  uninstall();
  // Our listener replaced the default action (exit); restore it unless someone else handles it.
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

function install(): void {
  if (installed) return;
  installed = true;
  process.on("exit", onExit);
  for (const signal of SIGNALS) process.on(signal, onSignal);
}

function uninstall(): void {
  if (!installed) return;
  installed = false;
  process.off("exit", onExit);
  for (const signal of SIGNALS) process.off(signal, onSignal);
}
