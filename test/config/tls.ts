import { request as httpRequest } from "node:http";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";

/** An HTTPS front for a plain-HTTP API on loopback (TLS terminated here), counting the requests it passed on. */
export interface HttpsFront {
  readonly baseUrl: string;
  /** Requests that completed a TLS handshake and reached the API. */
  forwarded(): number;
  close(): Promise<void>;
}

/** Starts an HTTPS server on 127.0.0.1 with `identity` that forwards every request to `target`. */
export async function httpsFront(
  target: string,
  identity: { cert: string; key: string },
): Promise<HttpsFront> {
  const upstream = new URL(target);
  let forwarded = 0;
  const server: Server = createServer(identity, (req, res) => {
    forwarded += 1;
    const proxied = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    proxied.on("error", () => res.destroy());
    req.pipe(proxied);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `https://127.0.0.1:${port}`,
    forwarded: () => forwarded,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
