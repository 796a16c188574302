import { type BaseStore, getConfig, type Item, type PutOperation } from "@langchain/langgraph";
import { ConfigurationError } from "../../errors/configuration-error.js";
import { isRunBatchedStore } from "../../langchain-seam/stores.js";
import {
  deleteFiles,
  downloadFileBytes,
  editFile,
  type FileMapView,
  type FileOpOutcome,
  globFiles,
  grepFiles,
  lsFiles,
  readFile,
  uploadFileBytes,
  writeFile,
} from "../file-map/file-map-ops.js";
import { checkVirtualPath } from "../protocol/paths.js";
import type {
  BackendError,
  BackendProtocol,
  DeleteResult,
  EditOptions,
  EditResult,
  FileData,
  FileDownloadResult,
  FileUpload,
  FileUploadResult,
  GlobOptions,
  GlobResult,
  GrepOptions,
  GrepResult,
  LsResult,
  ReadOptions,
  ReadResult,
  WriteResult,
} from "../protocol/protocol.js";
import { escapeLabel, namespaceProblem, refusesLikeWildcards } from "./namespace-labels.js";

/** The authenticated user of a LangGraph server run. `id` mirrors `identity`. */
export interface StoreBackendUser {
  identity: string;
  id: string;
  [field: string]: unknown;
}

/** What `namespace(ctx)` is given, read from the current LangGraph run. */
export interface StoreBackendContext {
  /** The authenticated user on a LangGraph server; `undefined` locally or outside a run. */
  user?: StoreBackendUser;
  /** `configurable.thread_id` of the run, if any. */
  threadId?: string;
  /** The runtime `context` passed to `invoke`, if any. */
  context?: Record<string, any>;
}

/** Options of `StoreBackend`. */
export interface StoreBackendOptions {
  /** The store namespace of the files, per run; e.g. one namespace per user. Required. */
  namespace: (ctx: StoreBackendContext) => readonly string[];
  /** The store; defaults to the store of the current run (`createDeepAgent({ store })`). */
  store?: BaseStore;
}

const OPTION_KEYS = new Set(["namespace", "store"]);
// Items fetched per search call. Large pages keep listings to one call for most namespaces,
// which also sidesteps stores whose order is unstable across pages.
const PAGE_SIZE = 1000;

type Scope = { store: BaseStore; namespace: string[] };
type Failure = { error: BackendError };

/**
 * Files kept in a LangGraph store (`InMemoryStore`, `SqliteStore`, PostgreSQL's
 * `PostgresStore`, ...), shared across threads: each file is a `FileData` item whose key is
 * its virtual path, under the namespace `namespace(ctx)` returns for the current run, so
 * files can be kept per user, per tenant or per thread. `ctx.user` is `undefined` when there
 * is no authenticated user (local runs, outside a run): give it a fallback. Directories are
 * implied by paths; bytes are kept base64. Listings scan the whole namespace, page by page.
 * On PostgreSQL, which refuses `%`, `_` and `\` in labels, those characters and `~` are
 * stored escaped as `~XX` (hex): the label "user_1" is stored as "user~5F1".
 *
 * @example
 * const backend = new StoreBackend({
 *   namespace: (ctx) => ["users", ctx.user?.id ?? "local", "files"],
 *   store: SqliteStore.open(".delve/store.db"),
 * });
 */
export class StoreBackend implements BackendProtocol {
  private readonly namespaceOf: StoreBackendOptions["namespace"];
  private readonly store: BaseStore | undefined;

  constructor(options: StoreBackendOptions) {
    const given = (options ?? {}) as unknown as Record<string, unknown>;
    const unknown = Object.keys(given).filter((k) => !OPTION_KEYS.has(k));
    if (unknown.length > 0) {
      throw new ConfigurationError(
        "UNKNOWN_OPTION",
        `StoreBackend: unknown option ${unknown.map((k) => `"${k}"`).join(", ")}; the options are namespace and store.`,
        { unknown, valid: [...OPTION_KEYS] },
      );
    }
    if (given.namespace === undefined) {
      throw new ConfigurationError(
        "MISSING_NAMESPACE",
        'StoreBackend needs a namespace function, e.g. new StoreBackend({ namespace: (ctx) => ["users", ctx.user?.id ?? "local"] }).',
      );
    }
    if (typeof given.namespace !== "function") {
      throw new ConfigurationError(
        "INVALID_NAMESPACE",
        'StoreBackend: namespace must be a function of the run, e.g. namespace: () => ["shared"].',
        { received: typeof given.namespace },
      );
    }
    if (given.store !== undefined && !isStore(given.store)) {
      throw new ConfigurationError(
        "INVALID_STORE",
        "StoreBackend: store must be a LangGraph BaseStore (InMemoryStore, SqliteStore, PostgresStore).",
      );
    }
    this.namespaceOf = given.namespace as StoreBackendOptions["namespace"];
    this.store = given.store as BaseStore | undefined;
  }

  async ls(path: string): Promise<LsResult> {
    return this.scan((files) => lsFiles(files, { path }));
  }

  async read(path: string, options: ReadOptions = {}): Promise<ReadResult> {
    return this.lookup([path], (files) => readFile(files, { path, ...options }));
  }

  async write(path: string, content: string | Uint8Array): Promise<WriteResult> {
    return this.lookup([path], (files) => writeFile(files, { path, content }));
  }

  async edit(
    path: string,
    oldString: string,
    newString: string,
    options: EditOptions = {},
  ): Promise<EditResult> {
    const replaceAll = options.replaceAll;
    return this.lookup([path], (files) =>
      editFile(files, { path, oldString, newString, replaceAll }),
    );
  }

  async grep(pattern: string, options: GrepOptions = {}): Promise<GrepResult> {
    return this.scan((files) => grepFiles(files, { pattern, ...options }));
  }

  async glob(pattern: string, options: GlobOptions = {}): Promise<GlobResult> {
    return this.scan((files) => globFiles(files, { pattern, ...options }));
  }

  async delete(path: string): Promise<DeleteResult> {
    return this.scan((files) => deleteFiles(files, { path }));
  }

  async uploadFiles(files: FileUpload[]): Promise<FileUploadResult[]> {
    const paths = files.map((f) => f.path);
    const outcome = await this.lookup(paths, (view) => uploadFileBytes(view, { files }));
    return "error" in outcome ? paths.map((path) => ({ path, error: outcome.error })) : outcome;
  }

  async downloadFiles(paths: string[]): Promise<FileDownloadResult[]> {
    const outcome = await this.lookup(paths, (view) => downloadFileBytes(view, { paths }));
    return "error" in outcome ? paths.map((path) => ({ path, error: outcome.error })) : outcome;
  }

  // An operation over every file of the namespace (listings, searches, directory deletes).
  private async scan<R>(op: (files: FileMapView) => R | FileOpOutcome<R>): Promise<R | Failure> {
    return this.apply(async (scope) => op(await listFiles(scope)));
  }

  // An operation on a few paths: it first gets just those files and their parent
  // directories; only when it needs more (a missing path may be a directory) does it load
  // the whole namespace and run again. The file operations are pure, so rerunning is safe.
  private async lookup<R>(
    paths: string[],
    op: (files: FileMapView) => R | FileOpOutcome<R>,
  ): Promise<R | Failure> {
    return this.apply(async (scope) => {
      const keys = [...new Set(paths.flatMap(withParents))];
      const items = await getMany(scope, keys);
      const known = new Map(keys.map((key, i) => [key, fileDataOf(items[i])]));
      try {
        return op(partialView(known));
      } catch (error) {
        if (error !== NEEDS_LISTING) throw error;
      }
      return op(await listFiles(scope));
    });
  }

  // Resolves store and namespace, saves the operation's changes, and turns any store
  // failure into an error result: a backend never throws at the model.
  private async apply<R>(
    run: (scope: Scope) => Promise<R | FileOpOutcome<R>>,
  ): Promise<R | Failure> {
    const scope = this.scope();
    if ("error" in scope) return scope;
    try {
      const outcome = await run(scope);
      if (!isOutcome(outcome)) return outcome;
      const changes = Object.entries(outcome.changes ?? {});
      if (changes.length > 0) {
        await putMany(
          scope.store,
          changes.map(([key, value]) => ({ namespace: scope.namespace, key, value })),
        );
      }
      return outcome.result;
    } catch (error) {
      return { error: { code: "io", message: `store error: ${firstLine(error)}` } };
    }
  }

  private scope(): Scope | Failure {
    let config: Record<string, any> | undefined;
    try {
      config = getConfig() as Record<string, any> | undefined;
    } catch {
      config = undefined; // no AsyncLocalStorage here: behave as outside a run
    }
    const store = this.store ?? (isStore(config?.store) ? (config.store as BaseStore) : undefined);
    if (!store) {
      return {
        error: {
          code: "unsupported",
          message: "StoreBackend has no store: pass `store` to createDeepAgent or to StoreBackend",
        },
      };
    }
    let namespace: unknown;
    try {
      namespace = this.namespaceOf(contextOf(config));
    } catch (error) {
      return { error: { code: "io", message: `namespace function failed: ${firstLine(error)}` } };
    }
    const problem = namespaceProblem(namespace);
    if (problem) return { error: { code: "io", message: `invalid store namespace: ${problem}` } };
    const labels = namespace as string[];
    return {
      store,
      namespace: refusesLikeWildcards(store) ? labels.map(escapeLabel) : [...labels],
    };
  }
}

/** The `StoreBackendContext` of the current run (empty outside a run). */
function contextOf(config: Record<string, any> | undefined): StoreBackendContext {
  const configurable = config?.configurable ?? {};
  const ctx: StoreBackendContext = {};
  const raw = configurable.langgraph_auth_user ?? config?.serverInfo?.user;
  const identity =
    typeof raw?.identity === "string"
      ? raw.identity
      : typeof configurable.langgraph_auth_user_id === "string"
        ? configurable.langgraph_auth_user_id
        : undefined;
  if (identity !== undefined && identity !== "") {
    const fields = raw !== null && typeof raw === "object" ? raw : {};
    ctx.user = { ...fields, identity, id: typeof fields.id === "string" ? fields.id : identity };
  }
  if (configurable.thread_id !== undefined && configurable.thread_id !== null) {
    ctx.threadId = String(configurable.thread_id);
  }
  if (config?.context !== null && typeof config?.context === "object") ctx.context = config.context;
  return ctx;
}

/** Every file of the namespace; pages through `search` to the end. */
async function listFiles(scope: Scope): Promise<Map<string, FileData>> {
  const found = new Map<string, FileData>();
  const ns = scope.namespace.join("\u0000");
  for (let offset = 0; ; offset += PAGE_SIZE) {
    const page = await scope.store.search(scope.namespace, { limit: PAGE_SIZE, offset });
    for (const item of page) {
      // search() matches by prefix, so child namespaces (and, on PostgreSQL, siblings that
      // merely start with the same text) come back too: keep the exact namespace only.
      if (item.namespace.join("\u0000") !== ns) continue;
      const data = fileDataOf(item);
      if (data && isCanonicalPath(item.key)) {
        found.set(item.key, data);
      }
    }
    if (page.length < PAGE_SIZE) break;
  }
  return found;
}

// Inside a run the store is LangGraph's AsyncBatchedStore, whose batch() throws; its single
// operations are batched together anyway. Other stores get one batch: one round trip, one
// transaction, and no concurrent first calls (PostgresStore's lazy setup() races on those).

async function getMany(scope: Scope, keys: string[]): Promise<Array<Item | null>> {
  const { store, namespace } = scope;
  if (isRunBatchedStore(store)) return Promise.all(keys.map((key) => store.get(namespace, key)));
  return (await store.batch(keys.map((key) => ({ namespace, key })))) as Array<Item | null>;
}

async function putMany(store: BaseStore, ops: PutOperation[]): Promise<void> {
  if (isRunBatchedStore(store)) {
    await Promise.all(
      ops.map((op) =>
        op.value === null
          ? store.delete(op.namespace, op.key)
          : store.put(op.namespace, op.key, op.value),
      ),
    );
    return;
  }
  await store.batch(ops);
}

/** Reads a stored value as FileData; also accepts deepagents' `content: string[]` shape. */
function fileDataOf(item: Item | null | undefined): FileData | undefined {
  const value = item?.value as Record<string, unknown> | undefined;
  if (!value) return undefined;
  const raw = value.content;
  const content = Array.isArray(raw) ? raw.join("\n") : raw;
  if (typeof content !== "string") return undefined;
  const encoding = value.encoding === "base64" ? "base64" : "utf-8";
  const stamp = (a: unknown, b: unknown, fallback: Date | undefined) =>
    typeof a === "string" ? a : typeof b === "string" ? b : (fallback ?? new Date(0)).toISOString();
  return {
    content,
    encoding,
    createdAt: stamp(value.createdAt, value.created_at, item?.createdAt),
    modifiedAt: stamp(value.modifiedAt, value.modified_at, item?.updatedAt),
  };
}

function isStore(value: unknown): value is BaseStore {
  const v = value as Record<string, unknown> | null | undefined;
  return (
    typeof v?.get === "function" && typeof v.put === "function" && typeof v.search === "function"
  );
}

// Keys written by other programs may not be virtual paths; those are not files here.
function isCanonicalPath(key: string): boolean {
  const checked = checkVirtualPath(key);
  return checked.ok && checked.path === key;
}

// Thrown by a partial view when an operation needs files it was not given.
const NEEDS_LISTING = new Error("StoreBackend: the operation needs the whole namespace");

function partialView(known: Map<string, FileData | undefined>): FileMapView {
  return {
    get(path) {
      if (!known.has(path)) throw NEEDS_LISTING;
      return known.get(path);
    },
    entries() {
      throw NEEDS_LISTING;
    },
  };
}

// "/a/b/c.md" -> ["/a/b/c.md", "/a/b", "/a", "/"]: what a write or read looks at first.
function withParents(input: string): string[] {
  const checked = checkVirtualPath(input);
  if (!checked.ok) return [];
  const keys = [checked.path];
  for (let at = checked.path.lastIndexOf("/"); at > 0; at = checked.path.lastIndexOf("/", at - 1)) {
    keys.push(checked.path.slice(0, at));
  }
  if (checked.path !== "/") keys.push("/");
  return keys;
}

function isOutcome<R>(value: R | FileOpOutcome<R>): value is FileOpOutcome<R> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && "result" in value;
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split("\n", 1)[0]!;
}
