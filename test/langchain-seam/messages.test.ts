import { AIMessage } from "@langchain/core/messages";
import { JsonPlusSerializer } from "@langchain/langgraph-checkpoint";
import { describe, expect, it } from "vitest";
import { setMessageId } from "../../src/langchain-seam/messages.js";

describe("@langchain/core message internals, as Delve relies on them", () => {
  it("a checkpoint round trip keeps an id set with setMessageId", async () => {
    const message = new AIMessage("hello");
    setMessageId(message, "summarized-1");
    const serde = new JsonPlusSerializer();
    const [type, bytes] = await serde.dumpsTyped(message);
    const back = (await serde.loadsTyped(type, bytes)) as AIMessage;
    expect(
      back.id,
      "the serializer writes a message's lc_kwargs, where setMessageId puts the id",
    ).toBe("summarized-1");
  });

  it("an id set on the instance alone is lost, which is why lc_kwargs is needed", async () => {
    const message = new AIMessage("hello");
    message.id = "instance-only";
    expect(
      (message as unknown as { lc_kwargs?: object }).lc_kwargs,
      "a message keeps its constructor fields in lc_kwargs",
    ).toBeTypeOf("object");
    const serde = new JsonPlusSerializer();
    const [type, bytes] = await serde.dumpsTyped(message);
    const back = (await serde.loadsTyped(type, bytes)) as AIMessage;
    // If this starts passing, the serializer reads instance fields and setMessageId can go.
    expect(back.id, "the serializer ignores an id set on the instance after construction").not.toBe(
      "instance-only",
    );
  });
});
