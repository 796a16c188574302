import http from "node:http";
import type { AddressInfo } from "node:net";
import type { SseEvent } from "./fake-streams.js";

// Rules the real provider APIs enforce on every request, shared by the fake servers. Each
// check returns a problem sentence (the fake answers it as the provider's 400) or undefined.

/** A tool call a scripted turn makes; the fake generates the id when it is omitted. */
export interface WireToolCall {
  name: string;
  args: Record<string, unknown>;
  id?: string;
}

/**
 * A transport fault a scripted turn injects: an HTTP 429 (with `retryAfter` seconds as the
 * Retry-After header when given), a 500 or 503, a connection reset after the response
 * started, or a hang (the request is never answered; the fake closes it on `close()`).
 */
export interface WireFault {
  fault: "429" | "500" | "503" | "reset" | "hang";
  retryAfter?: number;
  /** The request id header the provider sends (x-request-id / request-id). */
  requestId?: string;
}

/**
 * How a scripted answer streams when the client asks for a stream: `deltas`, the pieces its
 * text arrives in (they join to the text; default a word each); `holdAfter`, the number of
 * pieces after which the stream waits for the fake's `release()` (a model mid-answer);
 * `dropAfter`, after which the connection drops (a call failing mid-answer, then retried).
 */
export interface WireStreaming {
  deltas?: string[];
  holdAfter?: number;
  dropAfter?: number;
}

/** One scripted answer: text, tool calls, a forced provider error, or a fault. */
export type WireTurn =
  | ({ text: string; toolCalls?: undefined } & WireStreaming)
  | ({ toolCalls: WireToolCall[]; text?: string } & WireStreaming)
  | { fail: string }
  | WireFault;

/** A request a fake received, with its verdict. */
export interface WireRequest {
  path: string;
  body: any;
  /** The validation problem the fake answered 400 for; undefined when accepted. */
  rejected?: string;
  /** A hanging request the client gave up: its connection closed before any answer. */
  abandoned?: boolean;
}

/** A running fake provider: its base URL, what it received, and its script. */
export interface FakeApi {
  url: string;
  requests: WireRequest[];
  /** Replaces the remaining turns. */
  script(turns: WireTurn[]): void;
  /** Turns not consumed yet. */
  remaining(): number;
  /** Accepted requests' bodies, in order. */
  accepted(): any[];
  /** Streams waiting at their turn's `holdAfter` now. */
  holding(): number;
  /** Lets every held stream go on to its end (none held: the next one to reach its hold). */
  release(): void;
  close(): Promise<void>;
}

const NAME_RULE = /^[a-zA-Z0-9_-]{1,64}$/;

/** The tool-name rule every provider applies. */
export function toolNameProblem(name: unknown, where: string): string | undefined {
  if (typeof name !== "string" || !NAME_RULE.test(name)) {
    return `Invalid '${where}': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]{1,64}$'.`;
  }
  return undefined;
}

// Keywords OpenAI's strict mode refuses (structured outputs' supported subset excludes them).
const STRICT_UNSUPPORTED = [
  "allOf",
  "oneOf",
  "not",
  "if",
  "then",
  "else",
  "dependentRequired",
  "dependentSchemas",
  "patternProperties",
  "propertyNames",
  "unevaluatedProperties",
  "unevaluatedItems",
  "minProperties",
  "maxProperties",
  "uniqueItems",
  "contains",
  "default",
];

/**
 * OpenAI's strict-mode schema rules, in every subschema (`$defs` and `definitions` too):
 * every object has `additionalProperties: false` and lists every property in `required`
 * (optional ones as a null union), no unsupported keyword, a `$ref` has no keyword beside it
 * and points at a schema that exists, and every subschema says its type (or is an anyOf /
 * enum / const / $ref).
 */
export function strictSchemaProblem(
  schema: any,
  path = "parameters",
  root = schema,
): string | undefined {
  if (typeof schema !== "object" || schema === null) return `${path}: schema must be an object`;
  for (const key of STRICT_UNSUPPORTED) {
    if (key in schema) return `${path}: '${key}' is not permitted in strict mode`;
  }
  const inside = (sub: any, where: string) => strictSchemaProblem(sub, `${path}.${where}`, root);
  for (const key of ["$defs", "definitions"]) {
    for (const [name, sub] of Object.entries(schema[key] ?? {})) {
      const problem = inside(sub, `${key}.${name}`);
      if (problem) return problem;
    }
  }
  if (typeof schema.$ref === "string") {
    const extra = Object.keys(schema).filter(
      (k) => k !== "$ref" && k !== "$defs" && k !== "definitions",
    );
    if (extra.length) return `${path}: $ref cannot have keywords {'${extra.join("', '")}'}`;
    if (!refTarget(root, schema.$ref)) return `${path}: reference ${schema.$ref} can't be resolved`;
    return undefined;
  }
  if (Array.isArray(schema.anyOf)) {
    for (const [i, sub] of schema.anyOf.entries()) {
      const problem = inside(sub, `anyOf[${i}]`);
      if (problem) return problem;
    }
    return undefined;
  }
  if (schema.type === undefined && schema.enum === undefined && schema.const === undefined) {
    return `${path}: schema must have a 'type' key`;
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes("object") || schema.properties !== undefined) {
    if (schema.additionalProperties !== false) {
      return `${path}: 'additionalProperties' is required to be supplied and to be false`;
    }
    const props = Object.keys(schema.properties ?? {});
    const required: string[] = Array.isArray(schema.required) ? schema.required : [];
    const missing = props.find((p) => !required.includes(p));
    if (missing) {
      return `${path}: 'required' is required to be supplied and to be an array including every key in properties. Missing '${missing}'`;
    }
    for (const p of props) {
      const problem = inside(schema.properties[p], `properties.${p}`);
      if (problem) return problem;
    }
  }
  const items = [
    ...(schema.items !== undefined ? [["items", schema.items]] : []),
    ...(schema.prefixItems ?? []).map((s: any, i: number) => [`prefixItems[${i}]`, s]),
  ];
  for (const [where, sub] of items) {
    const problem = inside(sub, where);
    if (problem) return problem;
  }
  return undefined;
}

// A local JSON pointer's target ("#", "#/$defs/Seat"), or undefined.
function refTarget(root: any, ref: string): unknown {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  return ref
    .slice(2)
    .split("/")
    .reduce(
      (at: any, key) =>
        at && typeof at === "object" ? at[key.replace(/~1/g, "/").replace(/~0/g, "~")] : undefined,
      root,
    );
}

const MAGIC: Array<[string, (b: Buffer) => boolean]> = [
  ["image/png", (b) => b.subarray(0, 8).equals(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]))],
  ["image/jpeg", (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff],
  ["image/gif", (b) => b.subarray(0, 4).toString("latin1") === "GIF8"],
  [
    "image/webp",
    (b) =>
      b.subarray(0, 4).toString("latin1") === "RIFF" &&
      b.subarray(8, 12).toString("latin1") === "WEBP",
  ],
];

/** The image type base64 bytes really are (by their magic number), or undefined. */
export function imageTypeOfBase64(data: unknown): string | undefined {
  if (typeof data !== "string") return undefined;
  const bytes = Buffer.from(data, "base64");
  return MAGIC.find(([, test]) => test(bytes))?.[0];
}

/** Checks a data URL or http(s) URL for an image part; data URLs must hold the type they say. */
export function imageUrlProblem(url: unknown, where: string): string | undefined {
  if (typeof url !== "string") return `Invalid type for '${where}': expected a string.`;
  if (/^https?:\/\//.test(url)) return undefined;
  const found = /^data:(image\/(?:png|jpeg|gif|webp));base64,(.*)$/s.exec(url);
  if (!found) {
    return `Invalid '${where}'. Expected a base64-encoded data URL with an image MIME type (e.g. 'data:image/png;base64,...'), but got an unsupported value.`;
  }
  if (imageTypeOfBase64(found[2]) !== found[1]) {
    return `Invalid '${where}': the image data is not a valid ${found[1]} image.`;
  }
  return undefined;
}

/** Parses a tool call's `arguments` string; a fake refuses arguments that are not a JSON object. */
export function jsonArgsProblem(args: unknown, where: string): string | undefined {
  if (typeof args !== "string") return `Invalid type for '${where}': expected a string.`;
  try {
    const value = JSON.parse(args);
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      return `Invalid '${where}': expected a JSON object.`;
    }
  } catch {
    return `Invalid '${where}': not valid JSON.`;
  }
  return undefined;
}

/**
 * Starts a fake provider on 127.0.0.1 (random port). `routes` maps a path to a handler of
 * the parsed body and the next scripted turn: it returns the status and JSON to answer.
 * A request that a validator refuses gets the provider's 400 and consumes no turn.
 */
export async function startFake(options: {
  routes: Record<
    string,
    {
      validate(body: any): string | undefined;
      answer(turn: WireTurn, body: any): any;
      /** The route's streaming: its request checks and its events (absent: no streaming). */
      stream?: {
        problem(body: any): string | undefined;
        events(turn: WireTurn, body: any): SseEvent[];
      };
      /** The stream ends with `data: [DONE]` (OpenAI). */
      done?: boolean;
    }
  >;
  errorBody(message: string): unknown;
  basePath: string;
  /** The header the provider names its request id in. */
  requestIdHeader?: string;
}): Promise<FakeApi> {
  let turns: WireTurn[] = [];
  const requests: WireRequest[] = [];
  const server = http.createServer((req, res) => {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (chunk) => {
      raw += chunk;
    });
    req.on("end", () => {
      const send = (status: number, json: unknown) =>
        res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(json));
      const path = (req.url ?? "").split("?")[0]!.replace(options.basePath, "");
      const route = options.routes[path];
      if (req.method !== "POST" || !route) return send(404, options.errorBody(`No route ${path}`));
      let body: any;
      try {
        body = JSON.parse(raw);
      } catch {
        return send(400, options.errorBody("We could not parse the JSON body of your request."));
      }
      const problem =
        (route.stream
          ? route.stream.problem(body)
          : body.stream
            ? "the fake streams no answer on this route"
            : undefined) ?? route.validate(body);
      requests.push({ path, body, rejected: problem });
      if (problem) return send(400, options.errorBody(problem));
      const turn = turns.shift();
      if (!turn) return send(500, options.errorBody("the fake's script is exhausted"));
      if ("fail" in turn) {
        requests[requests.length - 1]!.rejected = turn.fail;
        return send(400, options.errorBody(turn.fail));
      }
      if ("fault" in turn) {
        requests[requests.length - 1]!.rejected = `fault ${turn.fault}`;
        const entry = requests[requests.length - 1]!;
        if (turn.fault === "hang") res.on("close", () => (entry.abandoned = true));
        return injectFault(res, turn, options.errorBody, options.requestIdHeader);
      }
      if (body.stream === true && route.stream) {
        const events = route.stream.events(turn, body);
        return void writeStream(res, events, route.done, hold(turn.holdAfter), turn.dropAfter);
      }
      return send(200, route.answer(turn, body));
    });
  });
  // A held stream waits for release(); a release before any stream is held lets the next pass.
  let [credits, holding, closed] = [0, 0, false];
  const waiters: Array<() => void> = [];
  const hold = (after: number | undefined) => {
    if (after === undefined) return undefined;
    return {
      after,
      wait: () =>
        closed || (credits > 0 && credits-- > 0)
          ? Promise.resolve()
          : new Promise<void>((resolve) => {
              holding++;
              waiters.push(() => {
                holding--;
                resolve();
              });
            }),
    };
  };
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${options.basePath}`,
    requests,
    script: (next) => {
      turns = [...next];
    },
    remaining: () => turns.length,
    accepted: () => requests.filter((r) => !r.rejected).map((r) => r.body),
    holding: () => holding,
    release: () => {
      if (!waiters.length) credits++;
      for (const go of waiters.splice(0)) go();
    },
    close: () =>
      new Promise<void>((resolve) => {
        closed = true;
        for (const go of waiters.splice(0)) go();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// Writes server-sent events, one at a time; a hold pauses after its count of text pieces.
async function writeStream(
  res: http.ServerResponse,
  events: SseEvent[],
  done: boolean | undefined,
  hold: { after: number; wait(): Promise<void> } | undefined,
  dropAfter?: number,
): Promise<void> {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  let pieces = 0;
  for (const e of events) {
    if (res.destroyed) return;
    res.write(`${e.event ? `event: ${e.event}\n` : ""}data: ${JSON.stringify(e.data)}\n\n`);
    if (e.piece && ++pieces === dropAfter)
      return void setTimeout(() => res.socket?.resetAndDestroy(), 10);
    if (e.piece && pieces === hold?.after) await hold.wait();
    // Each event its own write, apart in time: a client sees them arrive one by one.
    await new Promise((r) => setImmediate(r));
  }
  if (done) res.write("data: [DONE]\n\n");
  res.end();
}

function injectFault(
  res: http.ServerResponse,
  turn: WireFault,
  errorBody: (message: string) => unknown,
  requestIdHeader = "x-request-id",
): void {
  if (turn.fault === "hang") return; // Never answered; close() ends the socket.
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (turn.requestId) headers[requestIdHeader] = turn.requestId;
  if (turn.fault === "reset") {
    // The response starts, then the connection drops before its body is complete.
    res.writeHead(200, headers);
    res.write('{"id":"partial","choices":[');
    setTimeout(() => res.socket?.resetAndDestroy(), 10);
    return;
  }
  if (turn.retryAfter !== undefined) headers["retry-after"] = String(turn.retryAfter);
  const message =
    turn.fault === "429" ? "Rate limit reached, retry later." : "The server had an error.";
  res.writeHead(Number(turn.fault), headers).end(JSON.stringify(errorBody(message)));
}

let counter = 0;
/** A fresh id with a provider's prefix. */
export function freshId(prefix: string): string {
  counter += 1;
  return `${prefix}${counter.toString(36).padStart(6, "0")}`;
}
