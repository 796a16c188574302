import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local stand-in for OpenAI's Responses API, enough for the real ChatOpenAI class: the
 * first turn calls get_order, the turn after a tool result answers. Reports usage like the
 * real API. `requests` keeps every body received.
 */
export async function fakeOpenAI() {
  const requests: any[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      const request = JSON.parse(body || "{}");
      requests.push({ url: req.url, body: request });
      const answered = JSON.stringify(request.input ?? []).includes("function_call_output");
      const n = requests.length;
      const output = answered
        ? [
            {
              type: "message",
              id: `msg_${n}`,
              role: "assistant",
              status: "completed",
              content: [{ type: "output_text", text: "ORD-1 is paid.", annotations: [] }],
            },
          ]
        : [
            {
              type: "function_call",
              id: `fc_${n}`,
              call_id: `call_${n}`,
              name: "get_order",
              arguments: '{"id":"ORD-1"}',
              status: "completed",
            },
          ];
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          id: `resp_${n}`,
          object: "response",
          created_at: 1,
          status: "completed",
          model: "gpt-test",
          output,
          usage: {
            input_tokens: 500 + n,
            output_tokens: 20,
            total_tokens: 520 + n,
            input_tokens_details: { cached_tokens: 0 },
            output_tokens_details: { reasoning_tokens: 0 },
          },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise((r) => server.close(r)),
  };
}
