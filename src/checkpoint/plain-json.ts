const decoder = new TextDecoder();

/**
 * A stored JSON value with no `"lc"` key parsed directly: LangGraph's serializer revives only
 * objects marked with `lc` (messages, sets, snapshots...), and its reviver is the slow part of
 * a cold read. Undefined when the value needs the serializer (also for any `\u` escape or
 * `"__proto__"` key).
 */
export function loadPlainJson(type: string, value: Uint8Array | string): unknown {
  if (type !== "json" || value == null) return undefined;
  const text = typeof value === "string" ? value : decoder.decode(value);
  // An escape may spell "lc" (`"\u006cc"`): a document with any \u escape is not plain here.
  // The serializer's copy of a "__proto__" key sets a prototype, which JSON.parse does not.
  if (
    text.charCodeAt(0) === 1 ||
    text.includes('"lc"') ||
    text.includes("\\u") ||
    text.includes('"__proto__"')
  ) {
    return undefined;
  }
  return JSON.parse(text);
}
