import type { ParsedArgs } from "./args.js";

/** `delve doctor`: one line per fact, `ok` or `--`; exit 0 (it reports, it does not fail). */
export async function doctorCommand(args: ParsedArgs): Promise<number> {
  const { doctorLines } = await import("./doctor.js");
  const cwd = typeof args.values.cwd === "string" ? args.values.cwd : process.cwd();
  for (const line of await doctorLines({ cwd, env: process.env })) {
    console.log(`${line.ok ? "ok" : "--"}  ${line.text}`);
  }
  return 0;
}
