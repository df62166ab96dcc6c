/**
 * A small HTTPS receiver of Shipping Service webhooks, written as a receiving service should be: it checks
 * the sender (the shop's API key, compared in constant time), takes every event of a delivery (`data.hooks`
 * may hold several), dispatches on the hook header rather than on a key inside the payload, processes each
 * delivery once however often it arrives (the service may send one more than once), and answers 503 when it
 * cannot process now, so that the service tries again.
 */
import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";

/** The hooks, and the path each is subscribed at: `/webhooks/<hook>`. */
export const RECEIVER_HOOKS = [
  "shipment_status_change",
  "shipment_label_created",
  "order_status_change",
] as const;
/** A hook the receiver takes. */
export type ReceiverHook = (typeof RECEIVER_HOOKS)[number];
/** Header names as the simulator sends them (production's names are not published; see simulator/README.md). */
const HEADERS = {
  hook: "x-shipping-hook",
  deliveryId: "x-shipping-delivery-id",
  apiKey: "x-shipping-api-key",
} as const;
/** Largest body taken, in bytes. */
const MAX_BODY_BYTES = 1024 * 1024;
/** Delivery ids remembered for spotting duplicates (the oldest are forgotten first). */
const REMEMBERED_DELIVERIES = 10_000;

/** One event processed. */
export interface ReceivedEvent {
  deliveryId: string;
  hook: ReceiverHook;
  payload: Record<string, unknown>;
}

/** One request that arrived, and what the receiver answered. */
export interface Arrival {
  deliveryId: string | undefined;
  hook: string | undefined;
  status: number;
  /** Why it was refused, or "duplicate" for a delivery already processed. */
  note?: string;
}

/** How to start a receiver. */
export interface ReceiverOptions {
  /** The server certificate and key (e.g. from `createPrivateCa()`). */
  tls: { cert: string; key: string };
  /** The shop's API key: deliveries must carry its base64 in `x-shipping-api-key`. */
  apiKey: string;
  /** Default 0 (a free port); the receiver listens on 127.0.0.1 only. */
  port?: number;
  /** Told about every request, after it is answered. */
  onArrival?: (arrival: Arrival) => void;
}

/** A running receiver. */
export interface RunningReceiver {
  /** `https://127.0.0.1:<port>`; hooks are subscribed at `${url}/webhooks/<hook>`. */
  readonly url: string;
  /** Events processed, in order, each once. */
  readonly events: ReceivedEvent[];
  /** Every request, in order. */
  readonly arrivals: Arrival[];
  /** Answer 503 to the next `n` deliveries without processing them (as when a database is down). */
  failNext(n: number): void;
  close(): Promise<void>;
}

function isEvent(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Start a receiver on 127.0.0.1. */
export async function startReceiver(options: ReceiverOptions): Promise<RunningReceiver> {
  const expectedKey = Buffer.from(Buffer.from(options.apiKey, "utf8").toString("base64"));
  const events: ReceivedEvent[] = [];
  const arrivals: Arrival[] = [];
  const processed = new Set<string>();
  let failures = 0;

  const handle = (req: IncomingMessage, body: Buffer): Arrival => {
    const deliveryId = req.headers[HEADERS.deliveryId] as string | undefined;
    const hook = req.headers[HEADERS.hook] as string | undefined;
    const refuse = (status: number, note: string): Arrival => ({ deliveryId, hook, status, note });
    const sentKey = Buffer.from(String(req.headers[HEADERS.apiKey] ?? ""));
    if (sentKey.length !== expectedKey.length || !timingSafeEqual(sentKey, expectedKey)) {
      return refuse(401, "sender key missing or wrong");
    }
    if (req.method !== "POST") return refuse(405, "only POST");
    if (!RECEIVER_HOOKS.includes(hook as ReceiverHook) || req.url !== `/webhooks/${hook}`) {
      return refuse(400, "hook header missing, unknown, or not the one of this path");
    }
    if (!/^application\/json\b/i.test(String(req.headers["content-type"]))) return refuse(415, "not JSON");
    if (deliveryId === undefined || deliveryId === "") return refuse(400, "no delivery id");
    let hooks: unknown;
    try {
      hooks = (JSON.parse(body.toString("utf8")) as { data?: { hooks?: unknown } }).data?.hooks;
    } catch {
      return refuse(400, "body is not JSON");
    }
    if (!Array.isArray(hooks) || hooks.length === 0 || !hooks.every(isEvent)) {
      return refuse(400, "data.hooks is not a list of events");
    }
    if (processed.has(deliveryId)) return { deliveryId, hook, status: 200, note: "duplicate" };
    if (failures > 0) {
      failures -= 1;
      return refuse(503, "not processed now; try again");
    }
    for (const payload of hooks) events.push({ deliveryId, hook: hook as ReceiverHook, payload });
    processed.add(deliveryId);
    if (processed.size > REMEMBERED_DELIVERIES) processed.delete(processed.values().next().value as string);
    return { deliveryId, hook, status: 200 };
  };

  const server: Server = createServer(options.tls, (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on("end", () => {
      const arrival =
        size > MAX_BODY_BYTES
          ? { deliveryId: undefined, hook: undefined, status: 413, note: "too large" }
          : handle(req, Buffer.concat(chunks));
      arrivals.push(arrival);
      options.onArrival?.(arrival);
      res.writeHead(arrival.status, { "content-type": "text/plain" }).end(arrival.note ?? "ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    events,
    arrivals,
    failNext: (n) => {
      failures = n;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
