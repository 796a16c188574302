import { createHash } from "node:crypto";

// A saver serialises values to JSON text. The bulk of a thread is a few long strings (file
// contents, tool results) that reappear in later checkpoints: in a write, in the message
// holding the tool call, in each snapshot. So the JSON is cut into a skeleton and its long
// string literals, each stored once under its hash. Serialisers escape control characters,
// so \x01 never occurs in their JSON output and can mark the places and the format. A
// skeleton is only ever read back from a value the saver stored as "json" (user bytes are
// stored as "bytes", so no data can pass for one), and it names the thread whose chunks it
// may resolve.

/** The current skeleton format: MAGIC, the thread as JSON, "\n", the hashes, "\n", JSON. */
const MAGIC = "\x01dlv2\x01";
/** The first format (no thread): still read, by hash. */
const MAGIC_V1 = "\x01dlv1\x01";
// biome-ignore lint/suspicious/noControlCharactersInRegex: \x01 is the marker, on purpose.
const REF = /\x01(\d+)\x01/g;
const STRING_LITERAL = /"[^"\\]*(?:\\.[^"\\]*)*"/g;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A long string literal cut out of a value's JSON: its hash and its JSON text. */
export interface Chunk {
  hash: string;
  text: string;
}

/** Values whose JSON is shorter than this are stored as they are. */
export const MIN_SPLIT_BYTES = 2048;
/** String literals at least this long (JSON characters) are stored apart, once. */
export const MIN_CHUNK_CHARS = 1024;

/**
 * Cuts the long string literals out of serialised JSON: returns the skeleton that replaces
 * them (to store in the saver) and the chunks, or undefined when there is nothing to cut.
 */
export function splitLargeStrings(
  data: Uint8Array | string,
  minChunk = MIN_CHUNK_CHARS,
  thread = "",
): { skeleton: Uint8Array; chunks: Chunk[] } | undefined {
  if (data.length < MIN_SPLIT_BYTES) return undefined;
  const text = typeof data === "string" ? data : decoder.decode(data);
  const first = text.charCodeAt(0);
  // JSON objects, arrays and strings (PostgresSaver stores each channel value alone).
  if (first !== 0x7b && first !== 0x5b && first !== 0x22) return undefined;
  const chunks: Chunk[] = [];
  const hashes: string[] = [];
  const skeleton = text.replace(STRING_LITERAL, (literal) => {
    if (literal.length < minChunk) return literal;
    const hash = createHash("sha256").update(literal).digest("hex").slice(0, 32);
    chunks.push({ hash, text: literal });
    hashes.push(hash);
    return `\x01${hashes.length - 1}\x01`;
  });
  if (chunks.length === 0) return undefined;
  const head = `${MAGIC}${JSON.stringify(thread)}\n${hashes.join(",")}\n`;
  return { skeleton: encoder.encode(`${head}${skeleton}`), chunks };
}

/** What a stored skeleton refers to: its thread (undefined in the first format) and hashes. */
export interface SkeletonRefs {
  thread: string | undefined;
  hashes: string[];
  /** Where the skeleton's JSON starts. */
  body: number;
}

/**
 * The references of a value stored as a skeleton, or undefined for a value stored whole.
 * Only a value of type "json" can be one: any other (user bytes) is data, whatever it holds.
 */
export function skeletonRefs(type: string, data: Uint8Array | string): SkeletonRefs | undefined {
  if (type !== "json" || data == null || data.length === 0 || firstCode(data) !== 1) {
    return undefined;
  }
  const text = typeof data === "string" ? data : decoder.decode(data);
  if (text.startsWith(MAGIC)) {
    const threadEnd = text.indexOf("\n", MAGIC.length);
    const hashesEnd = text.indexOf("\n", threadEnd + 1);
    if (threadEnd < 0 || hashesEnd < 0) throw new Error("checkpoint value: a broken skeleton");
    const thread = JSON.parse(text.slice(MAGIC.length, threadEnd)) as string;
    return { thread, hashes: text.slice(threadEnd + 1, hashesEnd).split(","), body: hashesEnd + 1 };
  }
  if (text.startsWith(MAGIC_V1)) {
    const end = text.indexOf("\n");
    return {
      thread: undefined,
      hashes: text.slice(MAGIC_V1.length, end).split(","),
      body: end + 1,
    };
  }
  return undefined;
}

const firstCode = (data: Uint8Array | string): number =>
  typeof data === "string" ? data.charCodeAt(0) : (data[0] ?? -1);

/** Rebuilds the JSON a skeleton was cut from, given its chunks' texts by hash. */
export function joinLargeStrings(
  data: Uint8Array | string,
  refs: SkeletonRefs,
  texts: Map<string, string>,
): string {
  const text = typeof data === "string" ? data : decoder.decode(data);
  return text.slice(refs.body).replace(REF, (_, n: string) => {
    const hash = refs.hashes[Number(n)];
    const chunk = hash === undefined ? undefined : texts.get(hash);
    if (chunk === undefined) throw new Error(`checkpoint chunk ${hash} is missing`);
    return chunk;
  });
}
