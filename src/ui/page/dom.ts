// The page's small shared pieces: the API client and the one way strings reach the DOM
// (text nodes, never markup).

/** A JSON value from the API. */
export type Json = any;

const token = new URLSearchParams(location.search).get("token");
const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};

/** Calls the viewer's API (with the token when the URL carries one); throws its error text. */
export async function api(path: string, init: RequestInit = {}): Promise<Json> {
  const response = await fetch(path, { ...init, headers: { ...headers, ...(init.headers ?? {}) } });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(body.error ?? `HTTP ${response.status}`);
  return body;
}

/** POSTs `body` as JSON. */
export function post(path: string, body: unknown): Promise<Json> {
  return api(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
}

/** Builds an element: text children become text nodes. */
export function el(
  tag: string,
  attrs: Record<string, string> = {},
  ...children: Array<Node | string | undefined>
): HTMLElement {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const c of children) if (c !== undefined) node.append(c);
  return node;
}

/** Dollars; fractions of a cent keep two significant digits (a cheap run is not $0.0000). */
export const money = (usd: number | null | undefined) =>
  usd === null || usd === undefined
    ? "cost unknown"
    : `$${usd > 0 && usd < 0.01 ? usd.toPrecision(2) : usd.toFixed(4)}`;
/** Tokens in and out as one phrase. */
export const tokens = (t: { input: number; output: number }) =>
  `${t.input} in / ${t.output} out tokens`;
/** A status badge. */
export const status = (s: string) => el("span", { class: `status status-${s}` }, s);
