#!/usr/bin/env node
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { inspectSurface } from "../surface/inspect-surface.js";

const HELP = `delve: deep agents for TypeScript

Usage:
  delve surface <module> [--export <name>] [--json]
      Load an agent built with createDeepAgent from a JavaScript module (its default
      export, or the named export) and print what the model is handed: visible and
      hidden tools, characters and estimated tokens per tool. Calls no model.
  delve eval <module> [--model provider:model] [--record FILE | --replay FILE]
             [--repeat k] [--compare previous.json] [--json out.json] [--html report.html]
      Run the task set that the module exports by default (defineTaskSet from
      delve/evals): each task with the model, recording to or replaying from a
      cassette, k times each. Prints a table; exit code 1 when a task fails.
  delve --version     Print the version.
  delve --help        Print this help.
`;

function version(): string {
  const pkg = new URL("../../package.json", import.meta.url);
  return JSON.parse(readFileSync(pkg, "utf8")).version;
}

async function surface(args: string[]): Promise<number> {
  const file = args.find((a) => !a.startsWith("--"));
  if (!file) {
    console.error(
      "delve surface: name the module that exports your agent, e.g. delve surface ./agent.js",
    );
    return 2;
  }
  const exportIndex = args.indexOf("--export");
  const exportName = exportIndex >= 0 ? args[exportIndex + 1] : "default";
  const module = await import(pathToFileURL(resolve(file)).href);
  let agent = module[exportName ?? "default"];
  if (typeof agent === "function") agent = await agent();
  if (!agent) {
    console.error(`delve surface: ${file} has no export "${exportName}". Use --export <name>.`);
    return 2;
  }
  const report = await inspectSurface(agent);
  if (args.includes("--json")) {
    console.log(JSON.stringify(report, null, 2));
    return 0;
  }
  console.log(`registered (${report.registered.length}): ${report.registered.join(", ")}`);
  console.log(`visible    (${report.visible.length}): ${report.visible.join(", ")}`);
  for (const h of report.hidden) console.log(`hidden: ${h.name}: ${h.reason}`);
  for (const t of report.tools) {
    console.log(
      `  ${t.name.padEnd(20)} ${t.source.padEnd(9)} ${String(t.chars).padStart(6)} chars ~${t.tokens} tokens`,
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
  for (const w of report.warnings) console.log(`warning: ${w}`);
  return 0;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === "--help" || command === "-h" || command === "help") {
    console.log(HELP);
    return 0;
  }
  if (command === "--version" || command === "-v") {
    console.log(version());
    return 0;
  }
  if (command === "surface") return surface(rest);
  if (command === "eval") return (await import("./eval-command.js")).evalCommand(rest);
  console.error(`delve: unknown command "${command}". Run delve --help.`);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(`delve: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
