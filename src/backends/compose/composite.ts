import { DEFAULT_GLOB_MAX_RESULTS, DEFAULT_GREP_MAX_COUNT } from "../protocol/file-query.js";
import { policyShows, underMappedPolicy } from "../protocol/path-policy.js";
import { checkVirtualPath } from "../protocol/paths.js";
import type {
  BackendError,
  BackendProtocol,
  DeleteResult,
  EditOptions,
  EditResult,
  ExecuteOptions,
  ExecuteResult,
  ExecutionFacts,
  FileDownloadResult,
  FileInfo,
  FileUpload,
  FileUploadResult,
  GlobOptions,
  GlobResult,
  GrepOptions,
  GrepResult,
  LsResult,
  PathRestrictable,
  ReadOptions,
  ReadResult,
  WriteResult,
} from "../protocol/protocol.js";
import {
  mapError,
  mapErrorOf,
  mergeGlob,
  mergeGrep,
  messageOf,
  type PartialError,
  type PartialErrors,
  settle,
  sortUnique,
  type Target,
  withFailures,
} from "./composite-merge.js";
import { type Route, RouteTable, routeGlobs } from "./composite-routes.js";

export type { PartialError, PartialErrors } from "./composite-merge.js";

/** Options of `CompositeBackend`. */
export interface CompositeBackendOptions {
  /** Where every path not under a route goes; also runs `execute`. */
  default: BackendProtocol;
  /** Mounts by canonical directory prefix ("/memories/"), each a backend instance. */
  routes: Record<string, BackendProtocol>;
}

/**
 * Routes paths to backends by longest prefix: `/memories/a.md` under route "/memories/" is
 * `/a.md` to that route's backend, and every path it returns is mapped back. `ls`, `glob` and
 * `grep` on a directory holding mounts merge every backend involved, sorted by path, and
 * `ls` shows each mount as a directory. `execute` (present only when the default has it) runs
 * on the default backend; `delete` is present when any backend supports it, and a route
 * without it answers `unsupported`. Error messages have the inner path mapped back
 * (best effort: exact occurrences of the path the route's backend was given).
 *
 * @example
 * const backend = new CompositeBackend({
 *   default: new StateBackend(),
 *   routes: { "/memories/": new StoreBackend({ namespace: (ctx) => ["memories", ctx.user?.id ?? "local"] }) },
 * });
 */
export class CompositeBackend implements BackendProtocol {
  readonly #table: RouteTable;
  declare delete?: (path: string) => Promise<DeleteResult>;
  declare execute?: (command: string, options?: ExecuteOptions) => Promise<ExecuteResult>;
  declare executionFacts?: () => ExecutionFacts;

  constructor(options: CompositeBackendOptions) {
    this.#table = new RouteTable(options?.default, options?.routes);
    const backends = [options.default, ...this.#table.routes.map((r) => r.backend)];
    // Set per instance so `typeof backend.delete === "function"` tells the truth.
    if (backends.some((b) => typeof b.delete === "function")) {
      this.delete = (path) => this.#delete(path);
    }
    const fallback = options.default;
    if (typeof fallback.execute === "function") {
      this.execute = (command, opts) => fallback.execute!(command, opts);
      // The default backend's root is the composite's "/", so its facts hold as they are.
      if (typeof fallback.executionFacts === "function") {
        this.executionFacts = () => fallback.executionFacts!();
      }
    }
    // Commands run on the default backend only, so it alone needs confining.
    const restrictable = fallback as Partial<PathRestrictable>;
    if (typeof restrictable.restrictPaths === "function") {
      this.restrictPaths = (rules) =>
        new CompositeBackend({
          default: restrictable.restrictPaths!(rules),
          routes: Object.fromEntries(this.#table.routes.map((r) => [r.prefix, r.backend])),
        });
    }
  }

  /** Present when the default backend can confine its commands (see `PathRestrictable`). */
  declare restrictPaths?: PathRestrictable["restrictPaths"];

  /** The default backend. */
  get defaultBackend(): BackendProtocol {
    return this.#table.defaultBackend;
  }

  /** The route prefixes, longest first ("/memories/"). */
  get routePrefixes(): string[] {
    return this.#table.routes.map((r) => r.prefix);
  }

  async ls(path: string): Promise<LsResult & PartialErrors> {
    const target = this.#resolve(path);
    if ("error" in target) return { error: target.error };
    const { route, backend, inner } = target.resolved;
    const mounts = this.#mountDirs(target.path);
    const listed = await settle(() => this.#in(route, () => backend.ls(inner)));
    const files = (listed.files ?? [])
      .map((f) => ({ ...f, path: this.#table.outer(route, f.path) }))
      .filter((f) => this.#table.owns(route, f.path));
    if (listed.error) {
      if (mounts.length === 0) return { error: mapError(listed.error, target) };
      if (listed.error.code !== "not_found") {
        return withFailures(sortUnique([...files, ...mounts]), [
          { prefix: route?.prefix ?? "/", error: mapError(listed.error, target) },
        ]);
      }
    }
    return { files: sortUnique([...files, ...mounts]) };
  }

  async read(path: string, options?: ReadOptions): Promise<ReadResult> {
    const target = this.#resolve(path);
    if ("error" in target) return { error: target.error };
    const { route, backend, inner } = target.resolved;
    return mapErrorOf(await this.#in(route, () => backend.read(inner, options)), target);
  }

  async write(path: string, content: string | Uint8Array): Promise<WriteResult> {
    const target = this.#resolve(path);
    if ("error" in target) return { error: target.error };
    const { route, backend, inner } = target.resolved;
    const result = mapErrorOf(await this.#in(route, () => backend.write(inner, content)), target);
    return result.path ? { ...result, path: this.#table.outer(route, result.path) } : result;
  }

  async edit(
    path: string,
    oldString: string,
    newString: string,
    options?: EditOptions,
  ): Promise<EditResult> {
    const target = this.#resolve(path);
    if ("error" in target) return { error: target.error };
    const { route, backend, inner } = target.resolved;
    const result = mapErrorOf(
      await this.#in(route, () => backend.edit(inner, oldString, newString, options)),
      target,
    );
    return result.path ? { ...result, path: this.#table.outer(route, result.path) } : result;
  }

  async glob(pattern: string, options: GlobOptions = {}): Promise<GlobResult & PartialErrors> {
    const target = this.#resolve(options.path ?? "/");
    if ("error" in target) return { error: target.error };
    const max = options.maxResults ?? DEFAULT_GLOB_MAX_RESULTS;
    const calls = this.#searchPlan(target, pattern).flatMap(({ route, backend, path, patterns }) =>
      patterns.map(async (p) => {
        const result = await settle(() =>
          this.#in(route, () => backend.glob(p ?? pattern, { path, maxResults: max })),
        );
        return { route, result };
      }),
    );
    return mergeGlob(this.#table, await Promise.all(calls), max);
  }

  async grep(pattern: string, options: GrepOptions = {}): Promise<GrepResult & PartialErrors> {
    const target = this.#resolve(options.path ?? "/");
    if ("error" in target) return { error: target.error };
    const max = options.maxCount ?? DEFAULT_GREP_MAX_COUNT;
    const plan = this.#searchPlan(target, options.glob);
    const calls = plan.flatMap(({ route, backend, path, patterns }) =>
      patterns.map(async (glob) => {
        const result = await settle(() =>
          this.#in(route, () => backend.grep(pattern, { path, glob, maxCount: max })),
        );
        return { route, result };
      }),
    );
    return mergeGrep(this.#table, await Promise.all(calls), max);
  }

  async uploadFiles(files: FileUpload[]): Promise<FileUploadResult[]> {
    return this.#batch(
      files,
      (f) => f.path,
      (backend, items) =>
        backend.uploadFiles(
          items.map(({ item, inner }) => ({ path: inner, content: item.content })),
        ),
    );
  }

  async downloadFiles(paths: string[]): Promise<FileDownloadResult[]> {
    return this.#batch(
      paths,
      (p) => p,
      (backend, items) => backend.downloadFiles(items.map(({ inner }) => inner)),
    );
  }

  async #delete(path: string): Promise<DeleteResult> {
    const target = this.#resolve(path);
    if ("error" in target) return { error: target.error };
    // Refused before any route is touched: deleting "/" would empty every mount first.
    if (target.path === "/") {
      return { error: invalidPathError(path, "refusing to delete the root directory") };
    }
    const { route, backend, inner } = target.resolved;
    if (typeof backend.delete !== "function") {
      const message = `deletion is not supported for ${target.path}`;
      return { error: { code: "unsupported", message } };
    }
    const result = mapErrorOf(
      await this.#in(route, () =>
        route && inner === "/" ? this.#emptyRoute(backend, target.path) : backend.delete!(inner),
      ),
      target,
    );
    const own = result.deleted?.map((p) => this.#table.outer(route, p)) ?? [];
    // Mounts inside the deleted directory are emptied too: "Deleted" must mean gone.
    const below = this.#table.routesBelow(target.path);
    if (below.length === 0) return result.deleted ? { ...result, deleted: own } : result;
    const deleted = [...own];
    const failures: PartialError[] = [];
    let found = Boolean(result.deleted);
    for (const mount of below) {
      if (typeof mount.backend.delete !== "function") {
        const message = `deletion is not supported for ${mount.root}`;
        failures.push({ prefix: mount.prefix, error: { code: "unsupported", message } });
        continue;
      }
      const emptied = await this.#emptyRoute(mount.backend, mount.root);
      if (emptied.error && emptied.error.code !== "not_found") {
        failures.push({ prefix: mount.prefix, error: emptied.error });
      }
      if (emptied.deleted?.length) found = true;
      deleted.push(...(emptied.deleted ?? []).map((p) => this.#table.outer(mount, p)));
    }
    if (result.error && result.error.code !== "not_found") {
      failures.unshift({ prefix: route?.prefix ?? "/", error: result.error });
    }
    if (failures.length) return { deleted, ...withFailures(undefined, failures) };
    return found ? { deleted } : result;
  }

  // Deleting a mount's directory empties the route (the mount itself stays, as a mount
  // point does); backends refuse to delete their own "/", so delete each top-level entry.
  async #emptyRoute(backend: BackendProtocol, outerPath: string): Promise<DeleteResult> {
    const listing = await backend.ls("/");
    if (listing.error) return { error: listing.error };
    if (!listing.files?.length) {
      return { error: { code: "not_found", message: `nothing to delete under ${outerPath}` } };
    }
    const deleted: string[] = [];
    for (const entry of listing.files) {
      const path = entry.isDir ? entry.path.slice(0, -1) : entry.path;
      const result = await backend.delete!(path);
      if (result.error) return { error: result.error, deleted };
      deleted.push(...(result.deleted ?? []));
    }
    return { deleted };
  }

  // Runs a route backend's call with the path policy in force mapped to its own paths, so it
  // judges and filters what it really touches (its "/a.md" is the route's "/memories/a.md").
  #in<T>(route: Route | undefined, run: () => T): T {
    if (!route) return run();
    return underMappedPolicy((inner) => (inner === "/" ? route.root : route.root + inner), run);
  }

  #resolve(input: string): Target | { error: BackendError } {
    const checked = checkVirtualPath(input);
    if (!checked.ok) return { error: invalidPathError(input, checked.reason) };
    return { path: checked.path, resolved: this.#table.resolve(checked.path) };
  }

  // The mounts shown as directories when listing `dir`: "/a/b/" below "/" shows as "/a/".
  #mountDirs(dir: string): FileInfo[] {
    const base = dir === "/" ? "/" : `${dir}/`;
    return this.#table
      .routesBelow(dir)
      .map((route) => {
        const first = route.root.slice(base.length).split("/")[0];
        return { path: `${base}${first}/`, isDir: true };
      })
      .filter((mount) => policyShows(mount.path));
  }

  // Which backends a glob/grep under `target` consults, with the path and globs each sees.
  #searchPlan(target: Target, glob: string | undefined): SearchCall[] {
    const { route, backend, inner } = target.resolved;
    const own = route && glob?.startsWith("/") ? routeGlobs(glob, target.path, route.root) : [glob];
    const plan: SearchCall[] = [{ route, backend, path: inner, patterns: own }];
    for (const below of this.#table.routesBelow(target.path)) {
      const patterns = glob === undefined ? [undefined] : routeGlobs(glob, target.path, below.root);
      if (patterns.length > 0)
        plan.push({ route: below, backend: below.backend, path: "/", patterns });
    }
    return plan;
  }

  // Splits a batch by backend, calls each once, and puts the answers back in input order.
  async #batch<T, R extends { path: string; error?: BackendError }>(
    items: T[],
    pathOf: (item: T) => string,
    call: (backend: BackendProtocol, items: { item: T; inner: string }[]) => Promise<R[]>,
  ): Promise<R[]> {
    const out = new Array<R>(items.length);
    const groups = new Map<
      BackendProtocol,
      { at: number[]; items: { item: T; inner: string }[] }
    >();
    items.forEach((item, at) => {
      const target = this.#resolve(pathOf(item));
      if ("error" in target) {
        out[at] = { path: pathOf(item), error: target.error } as R;
        return;
      }
      const { backend, inner } = target.resolved;
      const group = groups.get(backend) ?? { at: [], items: [] };
      groups.set(backend, group);
      group.at.push(at);
      group.items.push({ item, inner });
    });
    await Promise.all(
      [...groups].map(async ([backend, group]) => {
        let answers: R[];
        try {
          const { route } = this.#table.resolve(checkedPath(pathOf(items[group.at[0]!]!)));
          answers = await this.#in(route, () => call(backend, group.items));
        } catch (cause) {
          const error: BackendError = {
            code: "io",
            message: `backend failed: ${messageOf(cause)}`,
          };
          answers = group.items.map(({ inner }) => ({ path: inner, error }) as R);
        }
        group.at.forEach((at, i) => {
          const answer = answers[i];
          const { route } = this.#table.resolve(checkedPath(pathOf(items[at]!)));
          out[at] = answer
            ? { ...answer, path: this.#table.outer(route, answer.path) }
            : ({
                path: pathOf(items[at]!),
                error: { code: "io", message: "no answer from backend" },
              } as R);
        });
      }),
    );
    return out;
  }
}

interface SearchCall {
  route: Route | undefined;
  backend: BackendProtocol;
  path: string;
  patterns: (string | undefined)[];
}

function checkedPath(input: string): string {
  const checked = checkVirtualPath(input);
  return checked.ok ? checked.path : input;
}

function invalidPathError(input: string, reason: string): BackendError {
  return { code: "invalid_path", message: `invalid path ${JSON.stringify(input)}: ${reason}` };
}
