import { type ParsedArgs, UsageError } from "./args.js";

const str = (v: unknown) => (typeof v === "string" ? v : undefined);

// The named export of a module, called when it is a function (a factory).
async function exported(args: ParsedArgs, what: string): Promise<{ file: string; value: any }> {
  const file = args.positionals[0];
  if (!file) throw new UsageError(`name the module that exports ${what}, e.g. ./agent.ts`);
  const { importModule } = await import("../run/build-agent.js");
  const name = str(args.values.export) ?? "default";
  const loaded = await importModule(file);
  let value = loaded[name];
  if (typeof value === "function" && typeof value.stream !== "function") value = await value();
  if (!value) throw new UsageError(`${file} has no export "${name}". Use --export NAME.`);
  return { file, value };
}

/** `delve surface MODULE`: what the model is handed, with the tools that need approval. */
export async function surfaceCommand(args: ParsedArgs): Promise<number> {
  const { value: agent } = await exported(args, "your agent");
  const { inspectSurface } = await import("../surface/inspect-surface.js");
  const report = await inspectSurface(agent);
  if (args.values.json) {
    console.log(JSON.stringify(report, null, 2));
    return 0;
  }
  // Top-level gates only: a subagent's reasons start with its own path.
  const gated = new Set(
    report.approval.flatMap((r) => (r.startsWith("interruptOn.") ? [r.slice(12)] : [])),
  );
  console.log(`registered (${report.registered.length}): ${report.registered.join(", ")}`);
  console.log(`visible    (${report.visible.length}): ${report.visible.join(", ")}`);
  for (const h of report.hidden) console.log(`hidden: ${h.name}: ${h.reason}`);
  for (const t of report.tools) {
    console.log(
      `  ${t.name.padEnd(20)} ${t.source.padEnd(9)} ${String(t.chars).padStart(6)} chars ~${t.tokens} tokens${gated.has(t.name) ? "  needs approval" : ""}`,
    );
  }
  console.log(
    `total ${report.totalChars} chars, ~${report.totalTokens} tokens; system prompt ${report.systemPromptChars} chars`,
  );
  const deferred = report.deferred;
  if (deferred) {
    console.log(
      `deferred   (${deferred.tools.length}): ${deferred.tools.map((t) => t.name).join(", ")}`,
    );
    console.log(
      `  index ${deferred.indexChars} chars ~${deferred.indexTokens} tokens (in search_tools); without deferral: total ${deferred.withoutDeferral.totalChars} chars, ~${deferred.withoutDeferral.totalTokens} tokens`,
    );
  }
  for (const r of report.approval.filter((r) => !r.startsWith("interruptOn."))) {
    console.log(`needs approval: ${r}`);
  }
  for (const w of report.warnings) console.log(`warning: ${w}`);
  return 0;
}

/** `delve lint MODULE`: lintTools on the module's tools; exit 1 when a finding is an error. */
export async function lintCommand(args: ParsedArgs): Promise<number> {
  const { file, value } = await exported(args, "tools");
  const tools = Array.isArray(value)
    ? value
    : Array.isArray(value?.tools)
      ? value.tools
      : undefined;
  if (!tools) {
    throw new UsageError(`${file}: export a list of tools, or options with tools: [...].`);
  }
  const { lintTools } = await import("../toolkit/lint-tools.js");
  const findings = lintTools(tools);
  if (args.values.json) {
    console.log(JSON.stringify(findings, null, 2));
  } else {
    for (const f of findings) console.log(`${f.tool} ${f.rule}: ${f.message} Fix: ${f.fix}`);
    console.error(`${tools.length} tools, ${findings.length} findings`);
  }
  return findings.length ? 1 : 0;
}
