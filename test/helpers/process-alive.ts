import fs from "node:fs";

/** Whether process `pid` still runs; a zombie (dead, not yet reaped by its adopter) counts as gone. */
export function isAlive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}
