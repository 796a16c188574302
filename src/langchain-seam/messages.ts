// Relies on: a @langchain/core message keeps its constructor fields in `lc_kwargs`, and the
// serializer (checkpoints) writes `lc_kwargs`, not the instance fields: an id set on the
// instance alone is lost when the checkpoint is read back. Not public API.
// Checked against: @langchain/core 1.4.0, @langchain/langgraph 1.7.3, langchain 1.5.14.
import type { BaseMessage } from "@langchain/core/messages";

/**
 * Gives a message an id that survives a checkpoint round trip.
 *
 * @example
 * setMessageId(response, `summarized-${crypto.randomUUID()}`);
 */
export function setMessageId(message: BaseMessage, id: string): void {
  message.id = id;
  const kwargs = (message as unknown as { lc_kwargs?: Record<string, unknown> }).lc_kwargs;
  if (kwargs && typeof kwargs === "object") kwargs.id = id;
}
