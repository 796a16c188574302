import { MemorySaver, Send, StateGraph, StateSchema } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  isSendTaskPath,
  runCheckpointer,
  runConfigurable,
  runTaskId,
  stepChannel,
} from "../../src/langchain-seam/pregel-config.js";

const State = new StateSchema({ count: z.number().default(0), seen: z.number().default(-1) });

describe("LangGraph's private config keys inside a task, as Delve reads them", () => {
  it("__pregel_read sees the step's own pending write, __pregel_send writes a channel", async () => {
    const graph = new StateGraph(State)
      .addNode("step", () => {
        const channel = stepChannel<number>("count");
        expect(
          channel,
          "a task's configurable has __pregel_read and __pregel_send functions",
        ).toBeDefined();
        channel!.write(41);
        return { seen: channel!.read() ?? -1 };
      })
      .addEdge("__start__", "step")
      .compile();
    const out = await graph.invoke({ count: 0 });
    expect(out.count, "__pregel_send([[channel, value]]) writes the channel").toBe(41);
    expect(out.seen, "__pregel_read(channel, true) includes the step's own pending writes").toBe(
      41,
    );
  });

  it("__pregel_checkpointer is the run's saver and __pregel_task_id names the task", async () => {
    const saver = new MemorySaver();
    let seen: { saver?: object; task?: string } = {};
    const graph = new StateGraph(State)
      .addNode("step", () => {
        seen = { saver: runCheckpointer(), task: runTaskId() };
        return {};
      })
      .addEdge("__start__", "step")
      .compile({ checkpointer: saver });
    await graph.invoke({ count: 1 }, { configurable: { thread_id: "t" } });
    expect(
      seen.saver,
      "configurable.__pregel_checkpointer is the saver the graph was compiled with",
    ).toBe(saver);
    expect(seen.task, "configurable.__pregel_task_id is the running task's id").toMatch(/\S/);
  });

  it("a Send's task is saved with a task path that starts ~__pregel_push", async () => {
    const paths: (string | undefined)[] = [];
    const saver = new MemorySaver();
    const putWrites = saver.putWrites.bind(saver);
    saver.putWrites = (config, writes, taskId, taskPath) => {
      paths.push(taskPath);
      return putWrites(config, writes, taskId, taskPath);
    };
    const graph = new StateGraph(State)
      .addNode("fan", () => ({}))
      .addNode("leaf", () => ({ seen: 1 }))
      .addEdge("__start__", "fan")
      .addConditionalEdges("fan", () => [new Send("leaf", { count: 1 })])
      .compile({ checkpointer: saver });
    await graph.invoke({ count: 1 }, { configurable: { thread_id: "sends" } });
    const sent = paths.filter((p): p is string => typeof p === "string" && isSendTaskPath(p));
    expect(
      sent.length,
      'LangGraph passes putWrites a Send task\'s path as taskPathStr(["__pregel_push", ...]), starting ~__pregel_push',
    ).toBe(1);
    expect(
      paths.filter((p) => p && !isSendTaskPath(p)).length,
      "node tasks' paths do not",
    ).toBeGreaterThan(0);
  });

  it("outside a run there is no configurable, and nothing throws", () => {
    expect(runConfigurable()).toBeUndefined();
    expect(stepChannel("files")).toBeUndefined();
    expect(runCheckpointer()).toBeUndefined();
    expect(runTaskId()).toBeUndefined();
  });
});
