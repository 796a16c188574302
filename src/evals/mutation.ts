import { toolVerbKind } from "../toolkit/lint-rules/side-effects.js";

// Built-in tools whose effect Delve knows: the file tools, todos (agent state only) and task
// (its file changes show in the run's files, which readOnly() also compares).
const BUILTIN_MUTATES: Record<string, boolean> = {
  ls: false,
  read_file: false,
  glob: false,
  grep: false,
  write_todos: false,
  task: false,
  write_file: true,
  edit_file: true,
  delete: true,
  execute: true,
};

/**
 * Whether a tool changes data: `metadata.mutates` when the tool declares it, else an MCP
 * tool's `readOnlyHint`/`destructiveHint`, else the built-in tools' known effects, else the
 * leading verb of its name as `lintTools` reads it. Undefined when nothing tells.
 *
 * @example
 * toolMutates({ name: "close_ticket" }) // true (by its verb)
 * toolMutates({ name: "sync", metadata: { mutates: true } }) // true (declared)
 */
export function toolMutates(tool: { name: string; metadata?: unknown }): boolean | undefined {
  const metadata = (tool.metadata ?? {}) as Record<string, any>;
  if (typeof metadata.mutates === "boolean") return metadata.mutates;
  const hints = metadata.annotations;
  if (hints?.readOnlyHint === true) return false;
  if (hints?.destructiveHint === true) return true;
  if (tool.name in BUILTIN_MUTATES) return BUILTIN_MUTATES[tool.name];
  const kind = toolVerbKind(tool.name);
  return kind === undefined ? undefined : kind === "write";
}
