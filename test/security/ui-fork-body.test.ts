import { describe, expect, it, vi } from "vitest";
import { startUi, type UiServer } from "../../src/ui/server.js";
import { harnessPerFile, open, send } from "../run/session-ops-harness.js";

// The viewer's fork endpoint takes a message and a checkpoint id from the page. A body of the
// wrong shape, a huge one, or a checkpoint of another thread must get a clear 4xx and change
// nothing: no new thread, no model call, the parent as it was.

vi.setConfig({ testTimeout: 120_000 });

const h = harnessPerFile();

async function twoThreads() {
  const ws = h.workspace();
  const ids: string[] = [];
  for (const task of ["first thread", "second thread"]) {
    const session = await open(h, ws);
    try {
      await send(h, session, { task, replies: [{ text: `${task} done` }] });
      ids.push(session.thread.id);
    } finally {
      await session.close();
    }
  }
  const ui = await startUi({ workspace: ws, port: 0, env: h.env() });
  return { ui, a: ids[0]!, b: ids[1]! };
}

const api = async (ui: UiServer, route: string) =>
  (await fetch(new URL(route, ui.url))).json() as Promise<any>;

async function fork(ui: UiServer, id: string, body: string) {
  const response = await fetch(new URL(`/api/threads/${id}/fork`, ui.url), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body,
  });
  return { status: response.status, body: (await response.json()) as { error?: string } };
}

const SHAPE = 'body: {"checkpoint_id": "ID or null", "message": "text"}';

describe("delve ui: POST /api/threads/:id/fork with a hostile body", () => {
  it("wrong types, a huge body and another thread's checkpoint: 400 or 413 with the reason; no thread, no model call", async () => {
    const { ui, a, b } = await twoThreads();
    try {
      const before = {
        threads: (await api(ui, "/api/threads")).threads.map((t: any) => t.id).sort(),
        parent: await api(ui, `/api/threads/${a}`),
        calls: h.openai.accepted().length,
      };
      const theirs = (await api(ui, `/api/threads/${b}`)).steps.at(-1).checkpoint_id;
      const mine = before.parent.steps.at(-1).checkpoint_id;
      expect(typeof theirs).toBe("string");

      const wrongShapes = [
        "{not json",
        "[]",
        "null",
        '"a message"',
        '{"message": 42}',
        '{"message": ["hi"]}',
        '{"message": {"text": "hi"}}',
        '{"message": "   "}',
        '{"__proto__": {"message": "hi"}}',
        `{"message": "hi", "checkpoint_id": 7}`,
        `{"message": "hi", "checkpoint_id": {"$ne": null}}`,
        `{"message": "hi", "checkpoint_id": ["${mine}"]}`,
      ];
      for (const body of wrongShapes) {
        expect(await fork(ui, a, body), body).toEqual({ status: 400, body: { error: SHAPE } });
      }
      // A checkpoint of the second thread, or one no thread has, is not a step of the first.
      for (const checkpoint of [theirs, "../../../etc/passwd", "1ef0-not-a-checkpoint"]) {
        const refused = await fork(
          ui,
          a,
          JSON.stringify({ message: "hi", checkpoint_id: checkpoint }),
        );
        expect(refused.status, checkpoint).toBe(400);
        expect(refused.body.error).toContain(checkpoint);
      }
      const huge = await fork(ui, a, JSON.stringify({ message: "x".repeat(5 * 1024 * 1024) }));
      expect(huge).toEqual({
        status: 413,
        body: { error: "the request body is over 4 MiB" },
      });

      expect((await api(ui, "/api/threads")).threads.map((t: any) => t.id).sort()).toEqual(
        before.threads,
      );
      expect(await api(ui, `/api/threads/${a}`)).toEqual(before.parent);
      expect(h.openai.accepted()).toHaveLength(before.calls);
      // The same endpoint still forks on a good body.
      h.openai.script([{ text: "forked" }]);
      const good = await fork(ui, a, JSON.stringify({ message: "again", checkpoint_id: mine }));
      expect(good.status).toBe(202);
    } finally {
      await ui.close();
    }
  });
});
