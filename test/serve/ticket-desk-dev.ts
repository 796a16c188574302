import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import {
  freePort,
  REPO_ROOT,
  SERVE_DIR,
  type ServerProcess,
  serverEnv,
  startServer,
} from "./server-process.js";

/** The bearer tokens of the two users the served ticket desk knows in tests. */
export const DESK_TOKENS = { "token-alice": "alice", "token-bob": "bob" };
/** The served graph's id (langgraph.json). */
export const DESK_GRAPH = "ticket_desk";
const CLI = resolve(SERVE_DIR, "node_modules/@langchain/langgraph-cli/dist/cli/cli.mjs");

/** A ticket desk on `langgraphjs dev`: `start()` (again after `stop()`, same storage), clients per user. */
export interface DeskDevServer {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Stops the server and removes its scratch folder. */
  dispose(): Promise<void>;
  url(): string;
  /** What the running (or last stopped) server printed. */
  output(): string;
  client(token: string): Client;
}

/**
 * The repo's ticket desk served by LangGraph's own dev server, in a scratch folder (its
 * storage, .langgraph_api/, lands there) on a copy of langgraph.json with its paths made
 * relative to it; tsx reads the repo's tsconfig. Call `start()` to run it.
 */
export async function ticketDeskDev(): Promise<DeskDevServer> {
  const dir = mkdtempSync(join(tmpdir(), "delve-serve-"));
  const config = JSON.parse(readFileSync(join(REPO_ROOT, "langgraph.json"), "utf8"));
  // relative to the scratch folder: the server joins the path to its folder
  const relocated = (spec: string) => {
    const [file, name] = spec.split(":");
    return `./${relative(dir, resolve(REPO_ROOT, file!))}:${name}`;
  };
  config.graphs = Object.fromEntries(
    Object.entries(config.graphs as Record<string, string>).map(([k, v]) => [k, relocated(v)]),
  );
  config.auth.path = relocated(config.auth.path);
  writeFileSync(join(dir, "langgraph.json"), JSON.stringify(config));
  const port = await freePort();
  let server: ServerProcess | undefined;
  const url = () => server!.url;
  return {
    url,
    output: () => server?.output() ?? "",
    client: (token) =>
      new Client({ apiUrl: url(), defaultHeaders: { Authorization: `Bearer ${token}` } }),
    async start() {
      server = await startServer({
        command: process.execPath,
        args: [CLI, "dev", "--host", "127.0.0.1", "--port", String(port)].concat([
          "--no-browser",
          "--no-reload",
          "--config",
          join(dir, "langgraph.json"),
        ]),
        cwd: dir,
        env: serverEnv({
          TICKET_DESK_TOKENS: JSON.stringify(DESK_TOKENS),
          TSX_TSCONFIG_PATH: join(REPO_ROOT, "tsconfig.json"),
        }),
        port,
        headers: { Authorization: "Bearer token-alice" },
      });
    },
    stop: async () => server?.stop(),
    async dispose() {
      await server?.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
