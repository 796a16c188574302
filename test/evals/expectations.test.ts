import {
  answerMatches,
  calledInOrder,
  calledTool,
  maxModelCalls,
  maxToolErrors,
  noFalseSuccess,
  noMutationBeforeApproval,
  notCalledTool,
  readOnly,
  satisfies,
  toolMutates,
  wroteFile,
} from "delve/evals";
import { describe, expect, it } from "vitest";
import { outcome, trajectory } from "./outcome.js";

const closeWrong = outcome(
  trajectory(
    [["update_ticket", { ticket_id: "T-1001", status: "closed" }]],
    { result: '{"ok":true}' },
    "Closed.",
  ),
);

describe("calledTool names the tool and the argument that did not match", () => {
  it("passes on a partial match, deep", async () => {
    const o = outcome(
      trajectory(
        [["update_ticket", { ticket_id: "T-1004", status: "closed", note: { by: "me", at: 1 } }]],
        "ok",
      ),
    );
    expect(
      await calledTool("update_ticket", { ticket_id: "T-1004", note: { by: "me" } }).check(o, {}),
    ).toEqual({ pass: true });
  });
  it("a wrong id fails naming ticket_id, what was expected and what was sent", async () => {
    const verdict = await calledTool("update_ticket", {
      ticket_id: "T-1004",
      status: "closed",
    }).check(closeWrong, {});
    expect(verdict).toEqual({
      pass: false,
      reason: 'update_ticket was called, but not with ticket_id "T-1004": got ticket_id "T-1001"',
    });
  });
  it("a tool never called fails listing the calls made", async () => {
    const verdict = await calledTool("get_ticket").check(closeWrong, {});
    expect(verdict.reason).toBe("get_ticket was never called (calls: update_ticket)");
  });
  it("a predicate sees the whole arguments", async () => {
    const check = calledTool("update_ticket", (a) => String(a.ticket_id).endsWith("4"));
    expect((await check.check(closeWrong, {})).reason).toContain(
      "no call's arguments satisfy the check",
    );
  });
});

describe("notCalledTool and calledInOrder", () => {
  it("notCalledTool names the step and the arguments", async () => {
    expect((await notCalledTool("update_ticket").check(closeWrong, {})).reason).toBe(
      'update_ticket was called at step 1 with {"ticket_id":"T-1001","status":"closed"}',
    );
  });
  it("calledInOrder fails when the update comes before the look-up", async () => {
    const o = outcome(trajectory([["update_ticket", {}]], [["get_ticket", {}]], "done"));
    expect((await calledInOrder("get_ticket", "update_ticket").check(o, {})).reason).toBe(
      "expected update_ticket after get_ticket; the calls were: update_ticket, get_ticket",
    );
    const right = outcome(
      trajectory([["get_ticket", {}]], [["search_tickets", {}]], [["update_ticket", {}]], "done"),
    );
    expect((await calledInOrder("get_ticket", "update_ticket").check(right, {})).pass).toBe(true);
  });
});

describe("readOnly", () => {
  it("fails on a tool declared mutating, naming it", async () => {
    expect((await readOnly().check(closeWrong, {})).reason).toBe(
      'update_ticket changes data, but was called at step 1 with {"ticket_id":"T-1001","status":"closed"}',
    );
  });
  it("fails on a tool nothing classifies, and says how to declare it", async () => {
    const o = outcome(trajectory([["frobnicate", {}]], "ok"), {
      mutates: { frobnicate: undefined },
    });
    expect((await readOnly().check(o, {})).reason).toContain(
      "declare metadata: { mutates: false }",
    );
  });
  it("fails when the files changed though every call was a read", async () => {
    const o = outcome(trajectory([["get_ticket", {}]], "ok"), { files: { "/a.md": "x" } });
    expect((await readOnly().check(o, {})).reason).toBe("files changed: /a.md");
  });
  it("passes on reads only", async () => {
    const o = outcome(
      trajectory(
        [
          ["get_ticket", {}],
          ["search_tickets", {}],
        ],
        "ok",
      ),
      { files: { "/s.md": "s" }, seedFiles: { "/s.md": "s" } },
    );
    expect((await readOnly().check(o, {})).pass).toBe(true);
  });
  it("classifies: metadata first, then MCP hints, built-ins, then the name's verb", () => {
    expect(toolMutates({ name: "get_and_fix", metadata: { mutates: true } })).toBe(true);
    expect(toolMutates({ name: "update_cache", metadata: { mutates: false } })).toBe(false);
    expect(toolMutates({ name: "sync", metadata: { annotations: { readOnlyHint: true } } })).toBe(
      false,
    );
    expect(toolMutates({ name: "write_file" })).toBe(true);
    expect(toolMutates({ name: "write_todos" })).toBe(false);
    expect(toolMutates({ name: "close_ticket" })).toBe(true);
    expect(toolMutates({ name: "search_orders" })).toBe(false);
    expect(toolMutates({ name: "frobnicate" })).toBeUndefined();
  });
});

describe("noFalseSuccess", () => {
  const failed = (answer: string) =>
    outcome(
      trajectory(
        [["update_ticket", { ticket_id: "T-1002", status: "processing" }]],
        {
          result: '{"ok":false,"code":"INVALID_TRANSITION","message":"closed"}',
          failed: true,
          code: "INVALID_TRANSITION",
        },
        answer,
      ),
    );
  it("a success claim after a fail() fails, naming the tool, the code and the answer", async () => {
    expect(
      (await noFalseSuccess().check(failed("Done: T-1002 is back in processing."), {})).reason,
    ).toBe(
      'update_ticket failed (INVALID_TRANSITION) with {"ticket_id":"T-1002","status":"processing"} and did not succeed later, but the final answer does not report it: "Done: T-1002 is back in processing."',
    );
  });
  it("an answer that reports the failure passes", async () => {
    expect(
      (await noFalseSuccess().check(failed("I could not move T-1002: it is closed."), {})).pass,
    ).toBe(true);
    expect(
      (await noFalseSuccess().check(failed("Refused with INVALID_TRANSITION."), {})).pass,
    ).toBe(true);
  });
  it("a failure the agent recovered from (the same tool succeeded later) needs no report", async () => {
    const o = outcome(
      trajectory(
        [["update_ticket", { ticket_id: "T-1" }]],
        { result: "{}", failed: true },
        [["update_ticket", { ticket_id: "T-1002" }]],
        { result: '{"ok":true}' },
        "Done.",
      ),
    );
    expect((await noFalseSuccess().check(o, {})).pass).toBe(true);
    expect((await noFalseSuccess({ tools: ["get_ticket"] }).check(failed("Done."), {})).pass).toBe(
      true,
    );
  });
});

describe("budgets name the budget and the count", () => {
  const o = outcome(
    trajectory(
      [["get_ticket", {}]],
      { result: "x", failed: true, code: "NOT_FOUND" },
      [["get_ticket", {}]],
      { result: "y", failed: true },
      "no",
    ),
  );
  it("maxModelCalls", async () => {
    expect((await maxModelCalls(2).check(o, {})).reason).toBe(
      "budget maxModelCalls(2) exceeded: 3 model calls",
    );
    expect((await maxModelCalls(3).check(o, {})).pass).toBe(true);
  });
  it("maxToolErrors", async () => {
    expect((await maxToolErrors(1).check(o, {})).reason).toBe(
      "budget maxToolErrors(1) exceeded: 2 tool errors (get_ticket: NOT_FOUND, get_ticket)",
    );
  });
});

describe("noMutationBeforeApproval", () => {
  const events = trajectory(
    [["update_ticket", { ticket_id: "T-1" }]],
    { result: '{"ok":true}' },
    "done",
  );
  it("a mutating call that ran with no approval before it fails", async () => {
    expect((await noMutationBeforeApproval().check(outcome(events), {})).reason).toBe(
      'update_ticket ran without an approval (call c1, args {"ticket_id":"T-1"})',
    );
  });
  it("an approval covering the call, before its result, passes", async () => {
    const approved = [
      events[0]!,
      {
        kind: "approval" as const,
        callIds: ["c1"],
        tools: ["update_ticket"],
        decisions: ["approve"],
      },
      ...events.slice(1),
    ];
    expect((await noMutationBeforeApproval().check(outcome(approved), {})).pass).toBe(true);
    const after = [
      ...events.slice(0, 2),
      {
        kind: "approval" as const,
        callIds: ["c1"],
        tools: ["update_ticket"],
        decisions: ["approve"],
      },
    ];
    expect((await noMutationBeforeApproval().check(outcome(after), {})).pass).toBe(false);
  });
});

describe("files and answers", () => {
  it("wroteFile: missing, unchanged from the seed, or not matching", async () => {
    const o = outcome(trajectory("ok"), {
      files: { "/brief.md": "T-1003", "/seed.md": "s" },
      seedFiles: { "/seed.md": "s" },
    });
    expect((await wroteFile("/brief.md", /T-1003/).check(o, {})).pass).toBe(true);
    expect((await wroteFile("/seed.md").check(o, {})).reason).toBe(
      "/seed.md was not written (written: /brief.md)",
    );
    expect((await wroteFile("/brief.md", "T-1005").check(o, {})).reason).toBe(
      '/brief.md does not match T-1005: "T-1003"',
    );
  });
  it("answerMatches: a RegExp, a case-insensitive substring, a judge that is not configured", async () => {
    const o = outcome(trajectory("T-1003 is Unassigned."));
    expect((await answerMatches(/unassigned/i).check(o, {})).pass).toBe(true);
    expect((await answerMatches("UNASSIGNED").check(o, {})).pass).toBe(true);
    expect((await answerMatches(/closed/).check(o, {})).reason).toBe(
      'the final answer does not match /closed/: "T-1003 is Unassigned."',
    );
    expect((await answerMatches({ judge: "names the status" }).check(o, {})).reason).toContain(
      "needs a judge model",
    );
  });
  it("satisfies: a check of your own, with its reason", async () => {
    const check = satisfies(
      "short answer",
      (o) => o.answer.length < 5 || `${o.answer.length} chars`,
    );
    expect((await check.check(outcome(trajectory("a long answer")), {})).reason).toBe(
      "short answer: 13 chars",
    );
  });
});
