import fs from "node:fs";
import path from "node:path";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import {
  type HumanReply,
  type HumanRequest,
  humanRequest,
  readHumanReply,
} from "./human-protocol.js";

/** Where `HumanChatModel` shows requests and reads replies. */
export interface HumanChatModelOptions {
  /**
   * Exchange through this directory: each call writes `request-N.json` and waits for
   * `reply-N.json`; a bad reply is deleted and answered by `error-N.json`. Unset: the terminal.
   */
  dir?: string;
  /** The terminal's input (default `process.stdin`). */
  input?: NodeJS.ReadableStream;
  /** Where the terminal mode prints requests (default `process.stderr`). */
  output?: NodeJS.WritableStream;
  /** How often the directory mode looks for the reply, in ms (default 50). */
  pollMs?: number;
}

// What every bound copy of one model shares: the call counter and the terminal's lines.
interface Shared {
  n?: number;
  lines?: LineSource;
  /** The terminal is asked one call at a time (parallel subagents queue). */
  turn?: Promise<unknown>;
}

/**
 * A chat model played by a person or a program: each call shows the exact request (system
 * prompt, tool definitions, messages; `HumanRequest`) and returns the reply it is given
 * (`HumanReply`: `{ text?, tool_calls?: [{ name, args, id? }] }`). In the terminal it prints
 * the request as JSON and reads the reply (JSON, or one line of plain text); with `dir` it
 * writes `dir/request-N.json` and waits for `dir/reply-N.json`. A reply that is not valid
 * (bad JSON, an unknown tool, no text and no call) is refused with what to fix, and the
 * same call waits for another: the thread never breaks on it. `delve run --model human`.
 *
 * @example
 * const model = new HumanChatModel({ dir: "/tmp/play" }); // or new HumanChatModel() for the terminal
 * const agent = createDeepAgent({ model });
 */
export class HumanChatModel extends BaseChatModel {
  private readonly boundTools: unknown[];

  constructor(
    private readonly options: HumanChatModelOptions = {},
    private readonly shared: Shared = {},
    tools: unknown[] = [],
  ) {
    super({});
    this.boundTools = tools;
  }

  _llmType(): string {
    return "human";
  }

  override bindTools(tools: any[]): any {
    return new HumanChatModel(this.options, this.shared, [...tools]);
  }

  async _generate(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
  ): Promise<ChatResult> {
    const n = this.nextNumber();
    const request = humanRequest(n, messages, this.boundTools);
    const names = request.tools.map((t) => t.name);
    let reply: HumanReply;
    if (this.options.dir) {
      reply = await this.viaDirectory(this.options.dir, request, names, options.signal);
    } else {
      const mine = (this.shared.turn ?? Promise.resolve()).then(() =>
        this.viaTerminal(request, names),
      );
      this.shared.turn = mine.catch(() => {});
      reply = await mine;
    }
    const message = new AIMessage({
      content: reply.text ?? "",
      response_metadata: { model_name: "human" },
      tool_calls: (reply.tool_calls ?? []).map((c, i) => ({
        name: c.name,
        args: c.args ?? {},
        id: c.id ?? `human_${n}_${i + 1}`,
        type: "tool_call" as const,
      })),
    });
    return { generations: [{ text: reply.text ?? "", message }] };
  }

  // Numbers go on from the directory's last request, so a resumed thread (another process)
  // never overwrites an earlier exchange.
  private nextNumber(): number {
    if (this.shared.n === undefined) {
      const dir = this.options.dir;
      const taken =
        dir && fs.existsSync(dir)
          ? fs
              .readdirSync(dir)
              .map((f) => /^request-(\d+)\.json$/.exec(f)?.[1])
              .filter((d): d is string => d !== undefined)
              .map(Number)
          : [];
      this.shared.n = Math.max(0, ...taken);
    }
    this.shared.n += 1;
    return this.shared.n;
  }

  private async viaDirectory(
    dir: string,
    request: HumanRequest,
    names: string[],
    signal: AbortSignal | undefined,
  ): Promise<HumanReply> {
    const { n } = request;
    fs.mkdirSync(dir, { recursive: true });
    const file = (kind: string) => path.join(dir, `${kind}-${n}.json`);
    writeAtomically(file("request"), { ...request, reply_to: `reply-${n}.json` });
    const pollMs = this.options.pollMs ?? 50;
    let unparsed: string | undefined;
    for (;;) {
      signal?.throwIfAborted();
      const found = readReplyFile(file("reply"));
      if (found !== undefined) {
        let problem: string;
        if ("problem" in found) {
          // What a link or FIFO points at is neither read nor echoed back.
          problem = `reply-${n}.json ${found.problem}`;
        } else {
          const { text } = found;
          try {
            const read = readHumanReply(JSON.parse(text), names);
            if ("reply" in read) {
              fs.rmSync(file("error"), { force: true });
              return read.reply;
            }
            problem = read.problem;
          } catch (error) {
            // A reply still being written parses on a later look; the same bad text twice is bad.
            if (text !== unparsed) {
              unparsed = text;
              await sleep(pollMs, signal);
              continue;
            }
            problem = `reply-${n}.json is not valid JSON (${(error as Error).message}).`;
          }
        }
        unparsed = undefined;
        fs.rmSync(file("reply"), { force: true });
        writeAtomically(file("error"), {
          n,
          error: `${problem} Write reply-${n}.json again.`,
          ...("text" in found ? { reply: found.text } : {}),
        });
      }
      await sleep(pollMs, signal);
    }
  }

  private async viaTerminal(request: HumanRequest, names: string[]): Promise<HumanReply> {
    const out = this.options.output ?? process.stderr;
    this.shared.lines ??= new LineSource(this.options.input ?? process.stdin);
    out.write(
      `--- model call ${request.n}: the request ---\n${JSON.stringify(request, null, 2)}\n`,
    );
    for (;;) {
      out.write(
        `--- reply ${request.n}: JSON {"text"?, "tool_calls"?: [{"name", "args", "id"?}]} or one line of text ---\n`,
      );
      const raw = await readReply(this.shared.lines);
      if (raw === undefined) {
        throw new Error(
          `HumanChatModel: the input ended before a reply to model call ${request.n}.`,
        );
      }
      let problem: string;
      try {
        const read = readHumanReply(raw.json ? JSON.parse(raw.text) : { text: raw.text }, names);
        if ("reply" in read) return read.reply;
        problem = read.problem;
      } catch (error) {
        problem = `not valid JSON (${(error as Error).message}).`;
      }
      out.write(`error: ${problem} Reply again.\n`);
    }
  }
}

// One reply from the terminal: a line of plain text, or JSON over as many lines as it takes
// (ended by a line that completes it, or by an empty line).
async function readReply(lines: LineSource): Promise<{ text: string; json: boolean } | undefined> {
  let first: string | undefined;
  do {
    first = await lines.next();
    if (first === undefined) return undefined;
  } while (!first.trim());
  if (!first.trim().startsWith("{")) return { text: first.trim(), json: false };
  let text = first;
  for (;;) {
    try {
      JSON.parse(text);
      return { text, json: true };
    } catch {}
    const line = await lines.next();
    if (line === undefined || !line.trim()) return { text, json: true };
    text += `\n${line}`;
  }
}

/** The lines of a stream, read on demand; paused while nobody waits, so it keeps no process alive. */
class LineSource {
  private buffer = "";
  private ended = false;
  private waiter: (() => void) | undefined;
  private attached = false;

  constructor(private readonly input: NodeJS.ReadableStream) {}

  async next(): Promise<string | undefined> {
    for (;;) {
      const at = this.buffer.indexOf("\n");
      if (at >= 0) {
        const line = this.buffer.slice(0, at).replace(/\r$/, "");
        this.buffer = this.buffer.slice(at + 1);
        return line;
      }
      if (this.ended) {
        if (!this.buffer) return undefined;
        const line = this.buffer;
        this.buffer = "";
        return line;
      }
      await new Promise<void>((resolve) => {
        this.waiter = resolve;
        this.attach();
        this.input.resume();
      });
    }
  }

  private attach(): void {
    if (this.attached) return;
    this.attached = true;
    const wake = () => {
      const w = this.waiter;
      this.waiter = undefined;
      this.input.pause();
      w?.();
    };
    this.input.on("data", (chunk: Buffer | string) => {
      this.buffer += chunk.toString();
      if (this.buffer.includes("\n")) wake();
    });
    this.input.on("end", () => {
      this.ended = true;
      wake();
    });
  }
}

// The reply as a regular file only: opened without following a symlink (which could point
// outside the directory) and without blocking (a FIFO would stall the run until written to).
function readReplyFile(file: string): { text: string } | { problem: string } | undefined {
  const refused = {
    problem: "is a symbolic link or not a regular file; write the reply as a regular file.",
  };
  let fd: number;
  try {
    fd = fs.openSync(
      file,
      fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK,
    );
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    if (code === "ELOOP" || code === "ENXIO") return refused;
    throw error;
  }
  try {
    if (!fs.fstatSync(fd).isFile()) return refused;
    return { text: fs.readFileSync(fd, "utf8") };
  } finally {
    fs.closeSync(fd);
  }
}

// Written beside the file and renamed over it; the temporary is created exclusively, so a
// symlink planted at its name is replaced rather than written through.
function writeAtomically(file: string, value: unknown): void {
  const temp = `${file}.${process.pid}.tmp`;
  fs.rmSync(temp, { force: true });
  fs.writeFileSync(temp, `${JSON.stringify(value, null, 2)}\n`, { flag: "wx" });
  fs.renameSync(temp, file);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener("abort", abort);
      resolve();
    }
    function abort() {
      clearTimeout(timer);
      reject(signal?.reason);
    }
    signal?.addEventListener("abort", abort, { once: true });
  });
}
