import { AIMessage, type ToolMessage } from "@langchain/core/messages";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import type { BackendProtocol, ExecuteOptions, ExecuteResult } from "delve";
import { type FilesystemMiddlewareOptions, filesystemMiddleware, StateBackend } from "delve";

/**
 * The file tools of one filesystem middleware over a backend (a fresh `StateBackend` by
 * default), and `call`, which invokes a tool the way the tool node does (a tool call in, a
 * `ToolMessage` out).
 *
 * @example
 * const { backend, call } = fsTools();
 * const reply = await call("read_file", { file_path: "/a.md" });
 */
export function fsTools(options: FilesystemMiddlewareOptions = {}) {
  const backend = options.backend ?? new StateBackend();
  const middleware = filesystemMiddleware({ ...options, backend });
  const tools = middleware.tools as unknown as StructuredToolInterface[];
  let calls = 0;
  const call = async (name: string, args: Record<string, unknown>): Promise<ToolMessage> => {
    const tool = tools.find((t) => t.name === name);
    if (!tool) throw new Error(`no tool ${name} in ${tools.map((t) => t.name).join(", ")}`);
    const id = `call_${++calls}`;
    const reply = (await tool.invoke({ id, name, args, type: "tool_call" })) as ToolMessage;
    if (reply.tool_call_id !== id)
      throw new Error(`reply answers ${reply.tool_call_id}, not ${id}`);
    return reply;
  };
  /** Calls a tool and returns its text, failing if the tool answered with an error. */
  const ok = async (name: string, args: Record<string, unknown>): Promise<string> => {
    const reply = await call(name, args);
    if (reply.status === "error") throw new Error(`${name} failed: ${String(reply.content)}`);
    return textOf(reply);
  };
  /** Calls a tool and returns its error text, failing unless it answered `status: "error"`. */
  const fails = async (name: string, args: Record<string, unknown>): Promise<string> => {
    const reply = await call(name, args);
    if (reply.status !== "error") throw new Error(`${name} succeeded: ${String(reply.content)}`);
    return textOf(reply);
  };
  return { backend, middleware, tools, call, ok, fails };
}

/** The text of a tool reply; fails on multimodal content. */
export function textOf(reply: ToolMessage): string {
  if (typeof reply.content !== "string") {
    throw new Error(`expected text, got ${JSON.stringify(reply.content).slice(0, 200)}`);
  }
  return reply.content;
}

/**
 * The tools a model request carries after the middleware's own `wrapModelCall` filter: what
 * the model is handed, not what is registered.
 */
export async function visibleTools(
  middleware: ReturnType<typeof filesystemMiddleware>,
): Promise<StructuredToolInterface[]> {
  const registered = middleware.tools as unknown as StructuredToolInterface[];
  let seen: StructuredToolInterface[] | undefined;
  const wrap = middleware.wrapModelCall as unknown as (
    request: unknown,
    handler: (request: { tools: StructuredToolInterface[] }) => Promise<AIMessage>,
  ) => Promise<unknown>;
  if (!wrap) return registered;
  await wrap({ tools: registered, messages: [] }, async (request) => {
    seen = request.tools;
    return new AIMessage("");
  });
  if (!seen) throw new Error("wrapModelCall never called the handler");
  return seen;
}

/** Each tool as the model receives it: LangChain's OpenAI function form. */
export function openAiForm(tools: StructuredToolInterface[]) {
  return tools.map((t) => convertToOpenAITool(t as any));
}

/**
 * A `StateBackend` that can also "execute": it answers each command from a script, so the
 * `execute` tool's rendering can be tested without a shell. Stands for any executing backend.
 */
export class ScriptedExecBackend extends StateBackend {
  readonly commands: string[] = [];

  constructor(private readonly answer: (command: string) => ExecuteResult) {
    super();
  }

  async execute(command: string, _options?: ExecuteOptions): Promise<ExecuteResult> {
    this.commands.push(command);
    return this.answer(command);
  }
}

/** `backend` with `delete` removed: a backend that cannot delete. */
export function withoutDelete(backend: BackendProtocol): BackendProtocol {
  return Object.assign(Object.create(backend), { delete: undefined }) as BackendProtocol;
}

/**
 * One tool's exact model-facing text, in the order the model gets it: name, description, and
 * the JSON schema as `convertToOpenAITool` serialises it (key order kept, unlike an object
 * snapshot).
 */
export function surfaceText(tools: StructuredToolInterface[]): string {
  return openAiForm(tools)
    .map(({ function: fn }) =>
      [`## ${fn.name}`, fn.description ?? "", JSON.stringify(fn.parameters)].join("\n"),
    )
    .join("\n\n");
}

/** The tool named `name` among `tools`. */
export function toolNamed(tools: StructuredToolInterface[], name: string): StructuredToolInterface {
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return tool;
}

/** Characters of name + description + JSON schema: the surface measure of SPEC §2. */
export function surfaceChars(tools: StructuredToolInterface[]): number {
  return openAiForm(tools).reduce(
    (sum, { function: fn }) =>
      sum + fn.name.length + (fn.description ?? "").length + JSON.stringify(fn.parameters).length,
    0,
  );
}

/** A file's exact text as stored (undefined when missing). */
export async function contentOf(backend: BackendProtocol, path: string) {
  const [file] = await backend.downloadFiles([path]);
  return file?.content ? new TextDecoder().decode(file.content) : undefined;
}
