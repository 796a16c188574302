import { ConfigurationError } from "../../errors/configuration-error.js";
import { assertBackendInstance } from "../protocol/assert-backend.js";
import { compileGlob, splitTopLevel } from "../protocol/glob.js";
import { braceHoldsSlash, expandBraces } from "../protocol/glob-braces.js";
import { checkVirtualPath, isUnder, relativeTo } from "../protocol/paths.js";
import type { BackendProtocol } from "../protocol/protocol.js";

/** One mount of a `CompositeBackend`: `prefix` "/memories/", `root` "/memories". */
export interface Route {
  prefix: string;
  root: string;
  backend: BackendProtocol;
}

/** Where a canonical path goes: its route (none for the default) and the path it sees. */
export interface Resolved {
  route: Route | undefined;
  backend: BackendProtocol;
  inner: string;
}

/**
 * The routing table of a `CompositeBackend`: validates the route keys, resolves a path by
 * longest prefix, and maps paths back out. Route keys must be canonical directory paths
 * ("/memories/", not "/memories", "/a//b/" or "/"), which also makes two keys for one
 * directory impossible.
 *
 * @example
 * const table = new RouteTable(state, { "/memories/": store });
 * table.resolve("/memories/a.md"); // { route, backend: store, inner: "/a.md" }
 */
export class RouteTable {
  readonly routes: readonly Route[];

  constructor(
    readonly defaultBackend: BackendProtocol,
    routes: Record<string, BackendProtocol>,
  ) {
    assertBackendInstance(defaultBackend, "CompositeBackend default");
    if (typeof routes !== "object" || routes === null || Array.isArray(routes)) {
      throw new ConfigurationError(
        "INVALID_ROUTES",
        'CompositeBackend routes must be an object mapping prefixes to backends, such as { "/memories/": new StoreBackend(...) }.',
      );
    }
    const table: Route[] = [];
    for (const [prefix, backend] of Object.entries(routes)) {
      const where = `CompositeBackend routes[${JSON.stringify(prefix)}]`;
      const checked = checkVirtualPath(prefix);
      const reason =
        !prefix.startsWith("/") || !prefix.endsWith("/")
          ? "must start and end with /"
          : !checked.ok
            ? checked.reason
            : prefix === "/"
              ? "cannot be / (that is the default backend)"
              : `${checked.path}/` !== prefix
                ? `must be written canonically as ${JSON.stringify(`${checked.path}/`)}`
                : undefined;
      if (reason) {
        throw new ConfigurationError("INVALID_ROUTE", `${where}: the prefix ${reason}.`, {
          prefix,
        });
      }
      assertBackendInstance(backend, where);
      table.push({ prefix, root: prefix.slice(0, -1), backend });
    }
    // Longest prefix first, so the first match is the most specific route.
    this.routes = table.sort((a, b) => b.prefix.length - a.prefix.length);
  }

  /** The route owning a canonical path, and the path its backend sees. */
  resolve(path: string): Resolved {
    for (const route of this.routes) {
      if (path === route.root || path.startsWith(route.prefix)) {
        const inner = path === route.root ? "/" : path.slice(route.root.length);
        return { route, backend: route.backend, inner };
      }
    }
    return { route: undefined, backend: this.defaultBackend, inner: path };
  }

  /** Maps a path a route's backend returned ("/a.md", "/sub/") back to the outside. */
  outer(route: Route | undefined, inner: string): string {
    return route ? route.root + inner : inner;
  }

  /**
   * True when an outside path returned by `route`'s backend really belongs to it; false when
   * a more specific route shadows it (the default's own "/memories/" directory, say).
   */
  owns(route: Route | undefined, outerPath: string): boolean {
    const path =
      outerPath.length > 1 && outerPath.endsWith("/") ? outerPath.slice(0, -1) : outerPath;
    return this.resolve(path).route === route;
  }

  /** Routes mounted strictly below a canonical directory. */
  routesBelow(dir: string): Route[] {
    return this.routes.filter((r) => r.root !== dir && isUnder(r.root, dir));
  }
}

/**
 * Rewrites a glob (the `fileMatchesGlob` contract) searched from `searchDir` into patterns
 * for a route mounted at `routeRoot` below it, anchored at the route's root, so that a file
 * of the route matches one of them exactly when its outside path matches `pattern`. Returns
 * [] when no file of the route can match. `"**"` may span the mount prefix, hence several.
 *
 * @example
 * routeGlobs("memories/*.md", "/", "/memories"); // ["/*.md"]
 * routeGlobs("*.md", "/", "/memories");          // ["*.md"] (file names match at any depth)
 */
export function routeGlobs(pattern: string, searchDir: string, routeRoot: string): string[] {
  if (!pattern.startsWith("/") && !pattern.includes("/") && pattern !== "**") return [pattern];
  const anchored = pattern.startsWith("/");
  const body = anchored ? pattern.slice(1) : pattern;
  // A group holding "/" ("{memories/a.md,b.md}") may reach the route at several depths.
  const expanded = braceHoldsSlash(body) ? expandBraces(body) : undefined;
  const bodies = expanded?.ok ? expanded.patterns : [body];
  const prefixSegments = relativeTo(routeRoot, anchored ? "/" : searchDir).split("/");
  const out = new Set<string>();
  for (const one of bodies) {
    for (const rest of residuals(splitTopLevel(one, "/"), prefixSegments)) {
      out.add(`/${rest.join("/")}`);
    }
  }
  return [...out];
}

// The pattern tails that must match a route's inner path once `prefix` has been consumed.
function residuals(pattern: string[], prefix: string[]): string[][] {
  if (prefix.length === 0) return pattern.length > 0 ? [pattern] : [];
  if (pattern.length === 0) return [];
  const [head, ...rest] = pattern as [string, ...string[]];
  if (head === "**") {
    const out = residuals(rest, prefix);
    // "**" never enters a dot-directory (the glob contract), so it cannot consume one.
    if (!prefix[0]!.startsWith(".")) out.push(...residuals(pattern, prefix.slice(1)));
    return out;
  }
  return compileGlob(head).test(prefix[0]!) ? residuals(rest, prefix.slice(1)) : [];
}
