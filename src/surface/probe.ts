import { AIMessage } from "@langchain/core/messages";
import { getConfig } from "@langchain/langgraph";
import { createMiddleware } from "langchain";

/** What the model would have been handed on one request. */
export interface RecordedRequest {
  tools: any[];
  systemPrompt: string;
  messageCount: number;
}

/** The configurable key under which an inspection passes its recorder. */
export const PROBE_KEY = "__delve_surface_probe";

/** The name of the innermost, normally inert, recording middleware. */
export const SURFACE_PROBE_NAME = "SurfaceProbe";

/**
 * The innermost model-call layer. It does nothing unless an inspection passes a recorder in
 * the run's config; then it records the request every other middleware produced and answers
 * with an empty message instead of calling the model, so no provider is ever contacted.
 */
export function surfaceProbeMiddleware() {
  return createMiddleware({
    name: SURFACE_PROBE_NAME,
    wrapModelCall: (request, handler) => {
      const record = probeRecorder();
      if (!record) return handler(request);
      record({
        tools: [...request.tools],
        systemPrompt: request.systemMessage?.text ?? request.systemPrompt ?? "",
        messageCount: request.messages.length,
      });
      return new AIMessage("");
    },
  });
}

function probeRecorder(): ((r: RecordedRequest) => void) | undefined {
  try {
    const value = getConfig()?.configurable?.[PROBE_KEY];
    return typeof value === "function" ? value : undefined;
  } catch {
    return undefined;
  }
}
