/**
 * A bare HTTPS receiver for the delivery tests: records what arrives and answers as the test programs it
 * (status, body, or a stall). Its certificate comes from the receiver example's private CA.
 */
import type { IncomingHttpHeaders } from "node:http";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { createPrivateCa, type PrivateCa } from "../../examples/receiver/privateCa";

/** One request the receiver got. */
interface Arrival {
  path: string;
  headers: IncomingHttpHeaders;
  /** The body as text (parse it in the test). */
  text: string;
}

/** How to answer one request: a status and body, or no answer at all ("stall", until the client gives up). */
type Answer = { status: number; body?: string } | "stall";

/** A running receiver. */
export interface TestReceiver {
  readonly url: string;
  readonly ca: PrivateCa;
  readonly arrivals: Arrival[];
  /** Answers for the next requests, in order; when empty, 200 with an empty body. */
  readonly script: Answer[];
  close(): Promise<void>;
}

let shared: PrivateCa | undefined;

/** Start a receiver on 127.0.0.1 (one CA per test process: openssl takes a while on a loaded machine). */
export async function startReceiver(): Promise<TestReceiver> {
  shared ??= await createPrivateCa();
  const ca = shared;
  const arrivals: Arrival[] = [];
  const script: Answer[] = [];
  const server: Server = createServer(ca.server, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      arrivals.push({
        path: req.url ?? "",
        headers: req.headers,
        text: Buffer.concat(chunks).toString("utf8"),
      });
      const answer = script.shift() ?? { status: 200 };
      if (answer === "stall") return;
      res.writeHead(answer.status, { "content-type": "text/plain" }).end(answer.body ?? "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    ca,
    arrivals,
    script,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * A receiver for a whole test file: started before its tests, closed after them, and emptied of arrivals and
 * scripted answers before each test. The object is filled in when the receiver starts.
 */
export function useReceiver(): TestReceiver {
  const holder = {} as TestReceiver;
  beforeAll(async () => {
    Object.assign(holder, await startReceiver());
  });
  afterAll(() => holder.close());
  beforeEach(() => {
    holder.arrivals.length = 0;
    holder.script.length = 0;
  });
  return holder;
}
