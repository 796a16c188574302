import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { createDeepAgent } from "../agent/create-deep-agent.js";
import type { BackendProtocol } from "../backends/protocol/protocol.js";
import { ConfigurationError } from "../errors/configuration-error.js";
import { checkServers } from "../mcp/server-config.js";
import { type ApprovalMode, approvalPolicy, GATED_TOOLS } from "./approval-policy.js";
import type { CompiledRules } from "./rules.js";
import { usageMiddleware, usageStateSchema } from "./usage.js";

/** What a run is built from. */
export interface AgentPlan {
  workspace: string;
  /** "provider:model" or a chat model instance (a cassette replay). */
  model: unknown;
  sandbox: "bwrap" | "none";
  approval: ApprovalMode;
  rules: CompiledRules;
  checkpointer: BaseCheckpointSaver;
  /** An `--agent` module, absolute. */
  agentModule?: string;
  /** MCP servers in the `{ mcpServers }` format, already read. */
  mcpServers?: Record<string, unknown>;
  /** Give the built-in agent (and its subagents) the `ask_user` tool. */
  askUser?: boolean;
}

/** A built agent and what to release when the run is over. */
export interface BuiltAgent {
  agent: any;
  close(): Promise<void>;
}

const SYSTEM_PROMPT = `You are a coding agent working in the user's workspace, which is the root (/) of your file tools. Read before you change; keep changes small and say what you did. Run commands with execute when you need to check your work.`;

/** Builds the run's agent: the module's (`--agent`), or the built-in workspace agent. */
export async function buildAgent(plan: AgentPlan): Promise<BuiltAgent> {
  if (plan.agentModule) return loadAgentModule(plan);
  const backend = await workspaceBackend(plan.workspace, plan.sandbox);
  const mcp = plan.mcpServers ? await connectServers(plan.mcpServers) : undefined;
  try {
    const mcpNames = (mcp?.tools ?? []).map((t) => t.name);
    const policy = approvalPolicy(plan.rules, plan.approval, plan.workspace, [
      ...GATED_TOOLS,
      ...mcpNames,
    ]);
    const agent = createDeepAgent({
      model: plan.model as any,
      backend,
      tools: mcp?.tools ?? [],
      systemPrompt: SYSTEM_PROMPT,
      checkpointer: plan.checkpointer,
      interruptOn: policy.interruptOn,
      middleware: [policy.middleware, usageMiddleware()] as any,
      // A delta channel: each checkpoint stores the usage records its step added, not all.
      stateSchema: usageStateSchema(),
      ...(plan.askUser ? { askUser: true } : {}),
    });
    return { agent, close: async () => mcp?.close() };
  } catch (error) {
    await mcp?.close();
    throw error;
  }
}

// `execute` in bubblewrap over the workspace, or on the host when the user chose `none`.
async function workspaceBackend(
  workspace: string,
  sandbox: "bwrap" | "none",
): Promise<BackendProtocol> {
  if (sandbox === "bwrap") {
    const { SandboxBackend } = await import("../backends/sandbox/sandbox.js");
    return new SandboxBackend({ rootDir: workspace });
  }
  const { LocalShellBackend } = await import("../backends/disk/local-shell.js");
  return new LocalShellBackend({ rootDir: workspace, virtualMode: true });
}

/** The workspace's `.delve/mcp.json`, when it has one. */
export function defaultMcpFile(workspace: string): string | undefined {
  const file = path.join(workspace, ".delve", "mcp.json");
  return fs.existsSync(file) ? file : undefined;
}

/**
 * Claude Desktop's `{ command, args, env }` / `{ url }` entries as `connectMcp` servers, checked
 * here so a mistake names the file and the server's key before anything starts.
 */
export function mcpServersOf(file: string, servers: Record<string, unknown>) {
  const out: Record<string, any> = {};
  for (const [name, raw] of Object.entries(servers)) {
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
      throw new ConfigurationError(
        "INVALID_MCP_SERVER",
        `${file}: mcpServers.${name} must be an object like { "command": "node", "args": ["server.js"] }.`,
      );
    }
    const entry = { ...(raw as Record<string, unknown>) };
    delete entry.type;
    if (entry.transport === undefined) entry.transport = entry.url ? "http" : "stdio";
    out[name] = entry;
  }
  if (Object.keys(out).length === 0) {
    throw new ConfigurationError(
      "INVALID_MCP_SERVER",
      `${file} lists no server under "mcpServers".`,
    );
  }
  try {
    checkServers(out, 60_000);
  } catch (error) {
    if (!ConfigurationError.isInstance(error)) throw error;
    throw new ConfigurationError("INVALID_MCP_SERVER", `${file}: ${(error as Error).message}`);
  }
  return out;
}

/** Reads an `--mcp` file (or `.delve/mcp.json`): `{ "mcpServers": { name: entry } }`. */
export function readMcpFile(file: string): Record<string, unknown> {
  let parsed: any;
  try {
    parsed = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (error) {
    throw new ConfigurationError(
      "INVALID_MCP_SERVER",
      `${file}: cannot read it as JSON (${(error as Error).message}).`,
    );
  }
  if (typeof parsed?.mcpServers !== "object" || parsed.mcpServers === null) {
    throw new ConfigurationError(
      "INVALID_MCP_SERVER",
      `${file}: expected { "mcpServers": { "name": { "command": ..., "args": [...] } } }.`,
    );
  }
  return mcpServersOf(file, parsed.mcpServers);
}

async function connectServers(servers: Record<string, unknown>) {
  const { connectMcp } = await import("../mcp/connect-mcp.js");
  return connectMcp(servers as any);
}

/**
 * Loads an `--agent` module (.js, .mjs or .ts: TypeScript through tsx, no build step). Its
 * default export is an agent, createDeepAgent options, or a function of
 * `{ workspace, checkpointer, model }` returning either (maybe as a promise). Options get the
 * run's checkpointer and model unless they name their own.
 */
export async function loadAgentModule(plan: AgentPlan): Promise<BuiltAgent> {
  const file = plan.agentModule as string;
  const loaded = await importModule(file);
  let value = loaded.default;
  if (typeof value === "function" && !isAgent(value)) {
    value = await value({
      workspace: plan.workspace,
      checkpointer: plan.checkpointer,
      model: plan.model,
    });
  }
  if (isAgent(value)) return { agent: value, close: async () => {} };
  if (value && typeof value === "object") {
    const options = value as { middleware?: unknown[] };
    const agent = createDeepAgent({
      model: plan.model as any,
      checkpointer: plan.checkpointer,
      ...options,
      // Usage is kept in the thread's state for every agent the CLI builds.
      middleware: [...(options.middleware ?? []), usageMiddleware()],
    } as any);
    return { agent, close: async () => {} };
  }
  throw new ConfigurationError(
    "INVALID_OPTION",
    `${file}: the default export must be an agent from createDeepAgent, its options, or a function returning either.`,
  );
}

const isAgent = (value: unknown): boolean =>
  Boolean(value) && typeof (value as any).stream === "function";

let tsLoader: Promise<unknown> | undefined;

/**
 * Imports a .js/.mjs/.ts module by path. TypeScript goes through tsx's loader, registered
 * for the whole process rather than `tsImport`'s scoped one: a scoped load would give the
 * module its own copy of delve, whose agents this process's copy would not recognise.
 */
export async function importModule(file: string): Promise<any> {
  const absolute = path.resolve(file);
  if (!fs.existsSync(absolute)) {
    throw new ConfigurationError("INVALID_OPTION", `${file}: no such file.`);
  }
  if (/\.[cm]?tsx?$/.test(absolute)) {
    tsLoader ??= import("tsx/esm/api").then(({ register }) => register());
    await tsLoader;
  }
  return import(pathToFileURL(absolute).href);
}
