// A synchronous fast path for what LangGraph's JSON serializer spends a cold read on. Its
// reviver awaits every value of a stored document and loads each message by stringifying it
// and parsing it again through @langchain/core's `load`; a 1,000-message snapshot took
// ~150 ms that way, ~15 ms here. The fast path builds exactly what the serializer builds for
// the values Delve's state holds (plain JSON, messages, delta snapshots, `undefined`), and
// hands the whole document to the serializer whenever it meets anything else.
import * as messageClasses from "@langchain/core/messages";
import { DeltaSnapshot, type SerializerProtocol } from "@langchain/langgraph-checkpoint";

type Builder = new (fields: Record<string, unknown>) => unknown;

/** Nesting past this is left to the serializer (deep documents are rare; it decides). */
const MAX_DEPTH = 500;
/** `load` refuses message arguments nested deeper than this; the serializer gives that error. */
const LOAD_MAX_DEPTH = 50;

const BAIL = Symbol("bail");
const decoder = new TextDecoder();
const invertedAliases = new Map<Builder, Record<string, string>>();

// `load` resolves ["langchain_core", "messages", Name] to @langchain/core/messages' Name.
function messageBuilder(id: unknown): Builder | undefined {
  if (!Array.isArray(id) || id.length !== 3) return undefined;
  if (id[0] !== "langchain_core" || id[1] !== "messages" || typeof id[2] !== "string") {
    return undefined;
  }
  const builder = (messageClasses as Record<string, unknown>)[id[2]];
  if (typeof builder !== "function") return undefined;
  // (`instanceof` would ask BaseMessage's own instance test, which a prototype fails.)
  const message = Object.prototype.isPrototypeOf.call(
    messageClasses.BaseMessage.prototype,
    builder.prototype,
  );
  return message ? (builder as Builder) : undefined;
}

// `load` maps each stored key back through the class's `lc_aliases`, else to camelCase.
function aliasesOf(builder: Builder): Record<string, string> {
  let inverted = invertedAliases.get(builder);
  if (!inverted) {
    const aliases: Record<string, string> = {};
    for (let c: any = builder; c?.prototype; c = Object.getPrototypeOf(c)) {
      Object.assign(aliases, Reflect.get(c.prototype, "lc_aliases"));
    }
    inverted = {};
    for (const [key, value] of Object.entries(aliases)) inverted[value] = key;
    invertedAliases.set(builder, inverted);
  }
  return inverted;
}

function camelCase(key: string): string {
  const trimmed = key.trim();
  if (!/[-_\s]/.test(trimmed)) return trimmed;
  return trimmed
    .replace(/[-_\s]+/g, "_")
    .toLowerCase()
    .replace(/_+([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

const isUndefinedMarker = (value: unknown): boolean =>
  value !== null &&
  typeof value === "object" &&
  (value as Record<string, unknown>).lc === 2 &&
  (value as Record<string, unknown>).type === "undefined" &&
  Object.keys(value).length === 2;

// A message's arguments as `load` receives them: the serializer revives an `undefined`
// marker first and stringifies the message again, so a marked property is dropped and a
// marked array item becomes null. Anything else marked, escaped, a `__proto__` key (the
// serializer's copy would set a prototype) or nesting past `load`'s limit gives BAIL.
function loadArgument(value: unknown, depth: number): unknown {
  if (depth > LOAD_MAX_DEPTH) return BAIL; // `load` counts every value, leaves included
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      const item = loadArgument(isUndefinedMarker(value[i]) ? null : value[i], depth + 1);
      if (item === BAIL) return BAIL;
      value[i] = item;
    }
    return value;
  }
  const record = value as Record<string, unknown>;
  if (Object.hasOwn(record, "lc") || Object.hasOwn(record, "__lc_escaped__")) return BAIL;
  if (Object.hasOwn(record, "__proto__")) return BAIL;
  for (const key in record) {
    if (isUndefinedMarker(record[key])) {
      delete record[key];
      continue;
    }
    const item = loadArgument(record[key], depth + 1);
    if (item === BAIL) return BAIL;
    record[key] = item;
  }
  return record;
}

function revive(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== "object") return value;
  if (depth > MAX_DEPTH) return BAIL;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      const item = revive(value[i], depth + 1);
      if (item === BAIL) return BAIL;
      value[i] = item;
    }
    return value;
  }
  const record = value as Record<string, unknown>;
  if (Object.hasOwn(record, "__proto__")) return BAIL;
  if (Object.hasOwn(record, "lc")) return reviveMarked(record, depth);
  for (const key in record) {
    const item = revive(record[key], depth + 1);
    if (item === BAIL) return BAIL;
    record[key] = item;
  }
  return record;
}

// The marked records Delve's state holds; any other is the serializer's to decide.
function reviveMarked(record: Record<string, unknown>, depth: number): unknown {
  const keys = Object.keys(record);
  if (record.lc === 2 && record.type === "undefined" && keys.length === 2) return undefined;
  if (record.lc === 2 && record.type === "delta_snapshot" && keys.length === 3) {
    if (!Object.hasOwn(record, "value")) return BAIL;
    const inner = revive(record.value, depth + 1);
    return inner === BAIL ? BAIL : new DeltaSnapshot(inner);
  }
  if (record.lc !== 1 || record.type !== "constructor") return BAIL;
  const builder = messageBuilder(record.id);
  const kwargs = record.kwargs;
  if (!builder || !kwargs || typeof kwargs !== "object" || Array.isArray(kwargs)) return BAIL;
  if (keys.some((k) => k !== "lc" && k !== "type" && k !== "id" && k !== "kwargs")) return BAIL;
  if (loadArgument(kwargs, 1) === BAIL) return BAIL;
  // `load` names the class after the stored id (the same name, unless a bundler renamed it).
  const name = (record.id as string[])[2]!;
  if (builder.name !== name) Object.defineProperty(builder, "name", { value: name });
  const aliases = aliasesOf(builder);
  const fields: Record<string, unknown> = {};
  for (const key in kwargs) {
    fields[aliases[key] || camelCase(key)] = (kwargs as Record<string, unknown>)[key];
  }
  return new builder(fields);
}

/**
 * Parses a stored JSON document the way LangGraph's serializer revives it, synchronously.
 * Returns `BAIL` when the document holds anything but plain JSON, messages, delta snapshots
 * and `undefined` markers.
 */
export function fastJsonLoad(text: string): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return BAIL; // the serializer throws its own error
  }
  return revive(parsed, 0);
}

/** Whether {@link fastJsonLoad} gave up on a document. */
export const isBail = (value: unknown): boolean => value === BAIL;

/**
 * LangGraph's `JsonPlusSerializer` with a synchronous fast path for loading: the same
 * values, built without the serializer's per-value awaits and without stringifying each
 * message again. Anything the fast path does not know goes to the serializer itself.
 */
export class FastLoadsSerde implements SerializerProtocol {
  constructor(readonly inner: SerializerProtocol) {}

  dumpsTyped(value: any): Promise<[string, Uint8Array]> {
    return this.inner.dumpsTyped(value);
  }

  // Never throws: a failure is a rejection, as the serializer's own. Anything the fast path
  // cannot build (a constructor that throws) is the serializer's to decide.
  async loadsTyped(type: string, data: Uint8Array | string): Promise<any> {
    if (type === "json" && (typeof data === "string" || data instanceof Uint8Array)) {
      let value: unknown = BAIL;
      try {
        value = fastJsonLoad(typeof data === "string" ? data : decoder.decode(data));
      } catch {
        value = BAIL;
      }
      if (value !== BAIL) return value;
    }
    return this.inner.loadsTyped(type, data);
  }
}

/**
 * `serde` with the fast load path when it is LangGraph's stock `JsonPlusSerializer` (not a
 * subclass, nothing overridden: an encrypting or custom serializer is returned as it is).
 */
export function withFastLoads<T>(serde: T): T {
  const s = serde as any;
  if (!s || s instanceof FastLoadsSerde) return serde;
  const proto = Object.getPrototypeOf(s);
  // By name and shape, not instanceof: a saver may bring its own copy of the package.
  const stock =
    proto?.constructor?.name === "JsonPlusSerializer" &&
    Object.getPrototypeOf(proto) === Object.prototype &&
    !Object.hasOwn(s, "loadsTyped") &&
    !Object.hasOwn(s, "_loads") &&
    !Object.hasOwn(s, "dumpsTyped");
  return stock ? (new FastLoadsSerde(s) as T) : serde;
}
