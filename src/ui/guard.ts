// Who may talk to `delve ui`: the served Host only (DNS rebinding), no other Origin
// (CSRF), JSON bodies only on writes, and a bearer token when bound beyond loopback.
import { timingSafeEqual } from "node:crypto";
import type { MiddlewareHandler } from "hono";

/** The page's Content-Security-Policy: its own scripts and styles, nothing inline. */
export const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Whether `host` (a bind address) is loopback-only. */
export function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** The Host header values a server bound to `host`:`port` answers to. */
export function servedHosts(host: string, port: number): Set<string> {
  const names = isLoopback(host) ? ["127.0.0.1", "localhost", "[::1]", host] : [host];
  return new Set(
    names.map((n) => `${n.includes(":") && !n.startsWith("[") ? `[${n}]` : n}:${port}`),
  );
}

function sameToken(given: string | undefined, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Refuses requests not for the served host, from another origin, or without the token. */
export function guard(options: { hosts: () => Set<string>; token?: string }): MiddlewareHandler {
  return async (c, next) => {
    const host = c.req.header("host") ?? "";
    // With a token, the LAN name users reach is unknown ahead (0.0.0.0): the token stops a
    // rebound page instead, and the Origin must still be the page's own.
    const hosts = options.token ? new Set([host]) : options.hosts();
    if (!hosts.has(host)) return c.json({ error: `unknown host "${host}"` }, 421);
    const origin = c.req.header("origin");
    if (origin !== undefined && ![...hosts].some((h) => origin === `http://${h}`)) {
      return c.json({ error: "cross-origin request refused" }, 403);
    }
    const site = c.req.header("sec-fetch-site");
    if (site && site !== "same-origin" && site !== "none") {
      return c.json({ error: "cross-site request refused" }, 403);
    }
    if (options.token) {
      const bearer = /^Bearer (.+)$/.exec(c.req.header("authorization") ?? "")?.[1];
      if (!sameToken(bearer ?? c.req.query("token"), options.token)) {
        return c.json({ error: "token required: open the URL delve ui printed" }, 401);
      }
    }
    if (c.req.method !== "GET" && c.req.method !== "HEAD") {
      const type = c.req.header("content-type") ?? "";
      if (!type.startsWith("application/json")) {
        return c.json({ error: "send JSON (Content-Type: application/json)" }, 415);
      }
    }
    await next();
    c.header("Content-Security-Policy", PAGE_CSP);
    c.header("X-Content-Type-Options", "nosniff");
    c.header("Referrer-Policy", "no-referrer");
    c.header("Cache-Control", "no-store");
  };
}
