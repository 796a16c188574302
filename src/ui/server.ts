// `delve ui`: a JSON API and one page over the workspace's .delve/threads.db. Every read comes
// from the thread's checkpoint history; every decision resumes the thread through the engine,
// whose claim makes it exactly-once against the CLI and other tabs.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { loadConfig } from "../run/config.js";
import {
  AlreadyDecidedError,
  InvalidDecisionError,
  openSession,
  type RunSession,
} from "../run/engine.js";
import type { PendingCall, RunDecision, RunQuestion, RunResult } from "../run/events.js";
import { ForkPointError } from "../run/run-errors.js";
import { openThreadsDb, type ThreadRow, type ThreadsDb } from "../run/threads-db.js";
import { evalApp, readEvalReport } from "./eval-report.js";
import { guard, isLoopback, servedHosts } from "./guard.js";
import { readThreadHistory } from "./history-read.js";
import { pageAsset } from "./page-assets.js";
import { diffFiles, type FileMap, filesByStep } from "./step-files.js";
import { type SurfaceView, surfaceView } from "./surface-view.js";
import {
  firstLine,
  messageView,
  runnerAlive,
  type Snapshot,
  type StepView,
  summaryOf,
  type ViewStatus,
} from "./thread-view.js";
import { usageBreakdown } from "./usage-view.js";

/** What starts `delve ui`. */
export interface UiOptions {
  workspace: string;
  /** Default 127.0.0.1. Any other than loopback requires the printed token. */
  host?: string;
  /** Default 4780; 0 picks a free port. */
  port?: number;
  /** The environment the sessions see (provider keys for resuming a thread). */
  env?: NodeJS.ProcessEnv;
  /** Serve this eval report (`delve eval --json`'s file) instead of the workspace's threads. */
  evalReport?: string;
}

/** A running `delve ui`. */
export interface UiServer {
  /** The URL to open (with the token when one is required). */
  readonly url: string;
  readonly port: number;
  readonly token?: string;
  close(): Promise<void>;
}

const PAGE_SIZE = 50;
// A decision or a fork message is small; a bigger body is refused before it is parsed.
const MAX_BODY_BYTES = 4 * 1024 * 1024;
const STATUSES = new Set(["completed", "paused", "failed", "running"]);

/** Builds the Hono app of `delve ui` (no socket); `hosts` names the Host headers it answers. */
export function uiApp(options: UiOptions & { hosts: () => Set<string>; token?: string }) {
  const workspace = fs.realpathSync(path.resolve(options.workspace));
  const env = options.env ?? process.env;
  const prices = loadConfig({ cwd: workspace, env }).config.prices;
  const readers = new Map<string, Promise<RunSession>>();
  const running = new Set<string>();
  // Fork runs going on in the background: close() waits for them.
  const inflight = new Set<Promise<void>>();

  // One read-only session per thread, kept open: reads go through its agent's history.
  const reader = (id: string) => {
    let s = readers.get(id);
    if (!s) {
      s = openSession({ workspace, threadId: id, readOnly: true, env });
      s.catch(() => readers.delete(id));
      readers.set(id, s);
    }
    return s;
  };
  // One connection for the rows, opened once the database exists (WAL: runs write beside it).
  let rows: ThreadsDb | undefined;
  const threads = async (): Promise<ThreadRow[]> => {
    if (!rows) {
      const db = await openThreadsDb(workspace, false);
      if (!db.db) return [];
      rows = db;
    }
    return rows.list();
  };
  // A thread's history changes only while a process runs it (the runner is set from a run's
  // start to its end, which touches updated_at): at rest, its history is read once.
  const histories = new Map<
    string,
    {
      key: string;
      last: Snapshot | undefined;
      steps: StepView[];
      pending: PendingCall[];
      questions: RunQuestion[];
    }
  >();
  async function historyOf(row: ThreadRow, session: RunSession, alive: boolean) {
    const key = `${row.updated_at}|${row.runner?.started_at ?? ""}`;
    const cached = histories.get(row.id);
    if (cached?.key === key && !alive && !running.has(row.id)) return cached;
    await threads();
    const { steps, last } = await readThreadHistory(
      rows!.checkpointer,
      session.agent,
      row.id,
      row.settings.model,
      prices,
    );
    const [pending, questions] = await Promise.all([session.pending(), session.questions()]);
    const read = { key, last, steps, pending, questions };
    histories.set(row.id, read);
    return read;
  }
  // Files per step, once per read of a history (state and diff both need them).
  const fileMaps = new WeakMap<StepView[], FileMap[]>();
  const filesOf = (steps: StepView[]) => {
    let maps = fileMaps.get(steps);
    if (!maps) {
      maps = filesByStep(steps, workspace);
      fileMaps.set(steps, maps);
    }
    return maps;
  };
  async function view(row: ThreadRow) {
    const session = await reader(row.id);
    const alive = runnerAlive(row.runner);
    const { last, steps, pending, questions } = await historyOf(row, session, alive);
    const summary = summaryOf(steps, last, alive);
    const status: ViewStatus = running.has(row.id) ? "running" : summary.status;
    const head = {
      id: row.id,
      title: firstLine(row.title),
      model: row.settings.model,
      created_at: row.created_at,
      updated_at: row.updated_at,
      parent: row.parent ?? null,
      ...summary,
      status,
    };
    return { head, steps, pending, questions, session };
  }
  // A thread's agent does not change while it is open: its surface is measured once.
  const surfaces = new Map<string, Promise<SurfaceView>>();
  const surfaceOf = (id: string) => {
    let s = surfaces.get(id);
    if (!s) {
      s = (async () => {
        const { inspectSurface } = await import("../surface/inspect-surface.js");
        return surfaceView(await inspectSurface((await reader(id)).agent));
      })();
      s.catch(() => surfaces.delete(id));
      surfaces.set(id, s);
    }
    return s;
  };
  const find = async (id: string) => {
    await threads();
    return rows?.get(id);
  };

  const app = new Hono();
  app.use("*", guard(options));
  app.use(
    "/api/*",
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (c) => c.json({ error: "the request body is over 4 MiB" }, 413),
    }),
  );
  app.onError((error, c) => c.json({ error: error.message }, 500));

  app.get("/api/info", (c) => c.json({ mode: "threads" }));

  app.get("/api/threads", async (c) => {
    const want = c.req.query("status");
    if (want && !STATUSES.has(want)) return c.json({ error: `unknown status "${want}"` }, 400);
    const page = Math.max(1, Number.parseInt(c.req.query("page") ?? "1", 10) || 1);
    const heads = [];
    for (const row of await threads()) heads.push((await view(row)).head);
    const matching = want ? heads.filter((h) => h.status === want) : heads;
    const start = (page - 1) * PAGE_SIZE;
    return c.json({
      threads: matching.slice(start, start + PAGE_SIZE),
      page,
      page_size: PAGE_SIZE,
      total: matching.length,
    });
  });

  app.get("/api/threads/:id", async (c) => {
    const row = await find(c.req.param("id"));
    if (!row) return c.json({ error: "no such thread" }, 404);
    const { head, steps, pending, questions } = await view(row);
    return c.json({ ...head, steps, pending, questions });
  });

  app.get("/api/threads/:id/state", async (c) => {
    const row = await find(c.req.param("id"));
    if (!row) return c.json({ error: "no such thread" }, 404);
    const { steps, session } = await view(row);
    const id = c.req.query("checkpoint");
    const index = id ? steps.findIndex((s) => s.checkpoint_id === id) : steps.length - 1;
    if (index < 0) return c.json({ error: "no such checkpoint in this thread" }, 404);
    const files = filesOf(steps)[index] ?? {};
    const checkpoint_id = steps[index]!.checkpoint_id;
    // The messages as they were then: that checkpoint's state, read whole.
    const state = await (session.agent as any).getState({
      configurable: { thread_id: row.id, checkpoint_id },
    });
    return c.json({
      checkpoint_id,
      messages: (state.values?.messages ?? []).map(messageView),
      files,
    });
  });

  app.get("/api/threads/:id/diff", async (c) => {
    const row = await find(c.req.param("id"));
    if (!row) return c.json({ error: "no such thread" }, 404);
    const { steps } = await view(row);
    const maps = filesOf(steps);
    const at = (id: string | undefined, fallback: number) => {
      if (!id) return fallback;
      return steps.findIndex((s) => s.checkpoint_id === id);
    };
    const to = at(c.req.query("to"), steps.length - 1);
    // Without `from`: the whole run, from the thread's first checkpoint.
    const from = at(c.req.query("from"), 0);
    if (to < 0 || (c.req.query("from") && from < 0)) {
      return c.json({ error: "no such checkpoint in this thread" }, 404);
    }
    return c.json({ files: diffFiles(maps[from] ?? {}, maps[to] ?? {}) });
  });

  app.get("/api/threads/:id/surface", async (c) => {
    const row = await find(c.req.param("id"));
    if (!row) return c.json({ error: "no such thread" }, 404);
    return c.json(await surfaceOf(row.id));
  });

  app.get("/api/threads/:id/usage", async (c) => {
    const row = await find(c.req.param("id"));
    if (!row) return c.json({ error: "no such thread" }, 404);
    return c.json(usageBreakdown((await view(row)).steps));
  });

  app.get("/api/pending", async (c) => {
    const all = [];
    const asked = [];
    for (const row of await threads()) {
      const { pending, questions } = await view(row);
      const thread = { thread_id: row.id, title: firstLine(row.title) };
      for (const call of pending) all.push({ ...thread, ...call });
      for (const question of questions) asked.push({ ...thread, ...question });
    }
    return c.json({ pending: all, questions: asked });
  });

  app.post("/api/threads/:id/decide", async (c) => {
    const row = await find(c.req.param("id"));
    if (!row) return c.json({ error: "no such thread" }, 404);
    const body = await c.req.json().catch(() => undefined);
    const decisions = parseDecisions(body);
    if (!decisions) return c.json({ error: "body: {decisions: [{type, ...}]}" }, 400);
    // A fresh session per decision: its claim is this request's, never a shared one.
    const session = await openSession({ workspace, threadId: row.id, env });
    try {
      const [pending, questions] = await Promise.all([session.pending(), session.questions()]);
      if (!pending.length && !questions.length) return c.json({ error: "already decided" }, 409);
      // decide() checks the decisions against the pause before it claims it, so a bad body
      // leaves the pause open; its claim makes a second tab or the CLI the loser.
      running.add(row.id);
      let result: RunResult | undefined;
      for await (const event of session.decide(decisions)) {
        if (event.type === "result") result = event;
      }
      return c.json({ result });
    } catch (error) {
      if (error instanceof AlreadyDecidedError) return c.json({ error: "already decided" }, 409);
      if (error instanceof InvalidDecisionError) return c.json({ error: error.message }, 400);
      throw error;
    } finally {
      running.delete(row.id);
      await session.close();
    }
  });

  app.post("/api/threads/:id/fork", async (c) => {
    const row = await find(c.req.param("id"));
    if (!row) return c.json({ error: "no such thread" }, 404);
    const body = await c.req.json().catch(() => undefined);
    const message = body?.message;
    const checkpoint = body?.checkpoint_id ?? null;
    if (typeof message !== "string" || !message.trim() || typeof (checkpoint ?? "") !== "string") {
      return c.json({ error: 'body: {"checkpoint_id": "ID or null", "message": "text"}' }, 400);
    }
    let session: RunSession;
    try {
      const { model, agent, sandbox, approval, mcp, replay } = row.settings;
      session = await openSession({
        workspace,
        env,
        title: message,
        forkOf: { threadId: row.id, ...(checkpoint ? { checkpointId: checkpoint } : {}) },
        ...{ model, agent, sandbox, approval, mcp, replay },
      });
    } catch (error) {
      if (error instanceof ForkPointError) return c.json({ error: error.message }, 400);
      throw error;
    }
    const id = session.thread.id;
    running.add(id);
    // The fork runs on in the background; the page follows it like any running thread.
    const run = (async () => {
      try {
        for await (const _ of session.send(message));
      } finally {
        running.delete(id);
        await session.close();
      }
    })().catch(() => {});
    inflight.add(run);
    void run.then(() => inflight.delete(run));
    return c.json({ thread_id: id, parent: session.thread.parent ?? null }, 202);
  });

  app.get("/", (c) => pageAsset(c, "index.html"));
  app.get("/app.js", (c) => pageAsset(c, "app.js"));
  app.get("/style.css", (c) => pageAsset(c, "style.css"));

  const close = async () => {
    await Promise.all(inflight);
    rows?.close();
    for (const s of readers.values()) await (await s.catch(() => undefined))?.close();
    readers.clear();
  };
  return { app, close };
}

function parseDecisions(body: any): RunDecision[] | undefined {
  if (!Array.isArray(body?.decisions) || !body.decisions.length) return undefined;
  const out: RunDecision[] = [];
  for (const d of body.decisions) {
    if (d?.type === "approve") out.push({ type: "approve" });
    else if (d?.type === "reject") {
      out.push(typeof d.message === "string" ? { type: "reject", message: d.message } : d);
    } else if (d?.type === "edit" && d.args && typeof d.args === "object") {
      out.push({ type: "edit", args: d.args });
    } else if (d?.type === "answer") {
      const choices = Array.isArray(d.choices) ? d.choices.map(String) : undefined;
      const text = typeof d.text === "string" ? d.text : undefined;
      out.push({
        type: "answer",
        ...(text !== undefined ? { text } : {}),
        ...(choices ? { choices } : {}),
      });
    } else return undefined;
  }
  return out;
}

/** Starts `delve ui` on its host and port; resolves once it listens. */
export async function startUi(options: UiOptions): Promise<UiServer> {
  const host = options.host ?? "127.0.0.1";
  const token = isLoopback(host) ? undefined : randomBytes(24).toString("base64url");
  let port = options.port ?? 4780;
  const hosts = () => servedHosts(host, port);
  const { app, close } = options.evalReport
    ? evalApp(readEvalReport(options.evalReport), { hosts, ...(token ? { token } : {}) })
    : uiApp({ ...options, hosts, token });
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: host, port }, (info) => {
      port = info.port;
      resolve(s);
    });
    s.once("error", reject);
  });
  const shown = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}/${token ? `?token=${token}` : ""}`,
    port,
    ...(token ? { token } : {}),
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await close();
    },
  };
}
