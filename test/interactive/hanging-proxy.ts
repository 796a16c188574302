import http from "node:http";
import type { AddressInfo } from "node:net";

/** A proxy in front of a fake provider that can hold the next request open (a model that hangs). */
export interface HangingProxy {
  url: string;
  /** The next request gets no answer until the client gives up. */
  hangNext(): void;
  /** How many requests are held open now. */
  held(): number;
  close(): Promise<void>;
}

/** Starts a proxy to `target` (a fake's base URL, e.g. http://127.0.0.1:PORT/v1). */
export async function startHangingProxy(target: string): Promise<HangingProxy> {
  const base = new URL(target);
  let hang = 0;
  let held = 0;
  const server = http.createServer((req, res) => {
    if (hang > 0) {
      hang--;
      held++;
      res.on("close", () => held--);
      req.resume();
      return;
    }
    const forward = http.request(
      {
        host: base.hostname,
        port: base.port,
        path: req.url,
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${base.pathname}`,
    hangNext: () => {
      hang++;
    },
    held: () => held,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
