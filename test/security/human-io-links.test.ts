import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { HumanMessage } from "@langchain/core/messages";
import { createDeepAgent, HumanChatModel } from "delve";
import { afterAll, describe, expect, it } from "vitest";
import { waitFor } from "../helpers/wait-for.js";

// `--human-io DIR` reads DIR/reply-N.json: whoever can write into DIR must not make Delve read
// (and echo into error-N.json, or send to the run) a file outside DIR through a symlink, nor
// hang the run on a FIFO that no one writes. Such a reply is refused like a bad one.

const root = fs.mkdtempSync(path.join(os.tmpdir(), "delve-human-links-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const readJson = (file: string) =>
  fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : undefined;

/** A run on a HumanChatModel over `dir`, waiting at its first request. */
async function pausedAtFirstRequest(name: string) {
  const dir = path.join(root, name);
  const agent = createDeepAgent({ model: new HumanChatModel({ dir, pollMs: 10 }) });
  const run = agent.invoke({ messages: [new HumanMessage("hello")] });
  await waitFor("request-1", () => readJson(path.join(dir, "request-1.json")));
  return { dir, run, reply: path.join(dir, "reply-1.json"), error: path.join(dir, "error-1.json") };
}

/** Answers with a plain reply once the hostile one was refused; the run ends on it. */
async function endsOnARealReply(paused: Awaited<ReturnType<typeof pausedAtFirstRequest>>) {
  fs.writeFileSync(paused.reply, JSON.stringify({ text: "the real reply" }));
  const result = await paused.run;
  expect(result.messages.at(-1)!.content).toBe("the real reply");
}

describe("--human-io: a reply file swapped for something else", () => {
  it("a symlink to a file outside DIR is not followed: refused, its target's text neither echoed nor sent", async () => {
    const secret = path.join(root, "secret.json");
    fs.writeFileSync(secret, '{"text":"SECRET-OUTSIDE-DIR"}');
    const paused = await pausedAtFirstRequest("symlink");
    fs.symlinkSync(secret, paused.reply);
    const error = await waitFor("error-1", () => readJson(paused.error));
    expect(error.error).toBe(
      "reply-1.json is a symbolic link or not a regular file; write the reply as a regular file. Write reply-1.json again.",
    );
    expect(JSON.stringify(error)).not.toContain("SECRET");
    // The link is removed, its target kept.
    expect(fs.existsSync(paused.reply)).toBe(false);
    expect(fs.readFileSync(secret, "utf8")).toContain("SECRET-OUTSIDE-DIR");
    await endsOnARealReply(paused);
  });

  it("a symlink to another file in DIR is refused too (links are never followed)", async () => {
    const paused = await pausedAtFirstRequest("inner-link");
    const inner = path.join(paused.dir, "prepared.json");
    fs.writeFileSync(inner, '{"text":"through a link"}');
    fs.symlinkSync(inner, paused.reply);
    const error = await waitFor("error-1", () => readJson(paused.error));
    expect(error.error).toContain("is a symbolic link or not a regular file");
    await endsOnARealReply(paused);
  });

  it("a FIFO does not block the run: refused at once, and the run goes on", async () => {
    const paused = await pausedAtFirstRequest("fifo");
    execFileSync("mkfifo", [paused.reply]);
    const error = await waitFor("error-1", () => readJson(paused.error), 5_000);
    expect(error.error).toContain("is a symbolic link or not a regular file");
    expect(fs.existsSync(paused.reply)).toBe(false);
    await endsOnARealReply(paused);
  });

  it("a symlink planted at the name of the next error file's temporary is not written through", async () => {
    const target = path.join(root, "victim.txt");
    fs.writeFileSync(target, "untouched\n");
    const paused = await pausedAtFirstRequest("temp-link");
    fs.symlinkSync(target, `${paused.error}.${process.pid}.tmp`);
    fs.writeFileSync(paused.reply, "not json");
    const error = await waitFor("error-1", () => readJson(paused.error));
    expect(error.error).toContain("is not valid JSON");
    expect(fs.readFileSync(target, "utf8")).toBe("untouched\n");
    await endsOnARealReply(paused);
  });
});
