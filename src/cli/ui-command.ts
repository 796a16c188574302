import type { ParsedArgs } from "./args.js";

/** `delve ui`: serves the viewer until the process is stopped (Ctrl-C). */
export async function uiCommand(args: ParsedArgs): Promise<number> {
  const { startUi } = await import("../ui/server.js");
  const str = (v: unknown) => (typeof v === "string" ? v : undefined);
  const port = str(args.values.port);
  const server = await startUi({
    workspace: str(args.values.cwd) ?? process.cwd(),
    host: str(args.values.host) ?? "127.0.0.1",
    port: port ? Number(port) : 4780,
    ...(str(args.values.eval) ? { evalReport: str(args.values.eval) } : {}),
  });
  console.log(server.url);
  if (server.token)
    console.error(
      "delve ui: this address is not loopback; the URL carries the token every request needs.",
    );
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
  await server.close();
  return 0;
}
