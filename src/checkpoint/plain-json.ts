const decoder = new TextDecoder();

/**
 * A stored JSON value with no `"lc"` key parsed directly: LangGraph's serializer revives only
 * objects marked with `lc` (messages, sets, snapshots...), and its reviver is the slow part of
 * a cold read. Undefined when the value needs the serializer.
 */
export function loadPlainJson(type: string, value: Uint8Array | string): unknown {
  if (type !== "json" || value == null) return undefined;
  const text = typeof value === "string" ? value : decoder.decode(value);
  if (text.charCodeAt(0) === 1 || text.includes('"lc"')) return undefined;
  return JSON.parse(text);
}
