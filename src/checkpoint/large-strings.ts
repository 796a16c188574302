import { createHash } from "node:crypto";

// A saver serialises values to JSON text. The bulk of a thread is a few long strings (file
// contents, tool results) that reappear in later checkpoints: in a write, in the message
// holding the tool call, in each snapshot. So the JSON is cut into a skeleton and its long
// string literals, each stored once under its hash. Serialisers escape control characters,
// so \x01 never occurs in their output and can mark the places and the format.

const MAGIC = "\x01dlv1\x01";
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
): { skeleton: Uint8Array; chunks: Chunk[] } | undefined {
  if (data.length < MIN_SPLIT_BYTES) return undefined;
  const text = typeof data === "string" ? data : decoder.decode(data);
  const first = text.charCodeAt(0);
  if (first !== 0x7b && first !== 0x5b) return undefined; // only JSON objects and arrays
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
  return { skeleton: encoder.encode(`${MAGIC}${hashes.join(",")}\n${skeleton}`), chunks };
}

/** The chunk hashes a stored skeleton refers to, or undefined for a value stored whole. */
export function chunkHashesOf(data: Uint8Array | string): string[] | undefined {
  const head =
    typeof data === "string"
      ? data.slice(0, MAGIC.length)
      : decoder.decode(data.subarray(0, MAGIC.length));
  if (head !== MAGIC) return undefined;
  const text = typeof data === "string" ? data : decoder.decode(data);
  const end = text.indexOf("\n");
  return text.slice(MAGIC.length, end).split(",");
}

/** Rebuilds the JSON a skeleton was cut from, given its chunks' texts by hash. */
export function joinLargeStrings(data: Uint8Array | string, texts: Map<string, string>): string {
  const text = typeof data === "string" ? data : decoder.decode(data);
  const end = text.indexOf("\n");
  const hashes = text.slice(MAGIC.length, end).split(",");
  return text.slice(end + 1).replace(REF, (_, n: string) => {
    const chunk = texts.get(hashes[Number(n)]!);
    if (chunk === undefined) throw new Error(`checkpoint chunk ${hashes[Number(n)]} is missing`);
    return chunk;
  });
}
