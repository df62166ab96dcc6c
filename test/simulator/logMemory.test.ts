/**
 * Memory the logs may hold (issue 29): the delivery log is bounded in bytes and refuses events no
 * production delivery carries (defect 3); a reader of a listing that stops reading holds neither a copy of
 * the log nor a slot forever, and only a few listings stream at once (defect 4).
 */
import type { IncomingMessage } from "node:http";
import { connect, type Socket } from "node:net";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KeyRing } from "../../simulator/auth";
import type { RunningSimulator } from "../../simulator/index";
import { RequestLog } from "../../simulator/requestLog";
import { api, call, eventually, expectErrorShape, type Reply, startSim, subs } from "./helpers";
import { startReceiver, type TestReceiver } from "./httpsReceiver";

const MIB = 1024 * 1024;

function collect(): void {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

let receiver: TestReceiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
});

async function labelSubscriber(options: Record<string, unknown> = {}): Promise<RunningSimulator> {
  const sim = await startSim({ deliveryCa: receiver.ca.caPem, ...options });
  const reply = await api(sim, "POST", "/webhook_subscriptions", {
    body: subs(["shipment_label_created", `${receiver.url}/labels`]),
  });
  expect(reply.status).toBe(200);
  return sim;
}

const label = (shipmentIds: number[]) => ({
  kind: "shipment_label_created",
  shop: "demo",
  shipmentIds,
  status: "success",
});

describe("defect 3: the delivery log is bounded in bytes", () => {
  it("refuses a label event with more shipment ids than one delivery carries: 422 naming the field", async () => {
    const sim = await labelSubscriber();
    const ids = Array.from({ length: 150_000 }, (_, i) => i + 1);
    const reply = await call(sim.baseUrl, "POST", "/__sim/events", { body: label(ids) });
    expect(reply.status).toBe(422);
    expect(expectErrorShape(reply).message).toMatch(/shipmentIds.*at most 1000/);
    expect(sim.deliveries()).toEqual([]);
  });

  it("keeps at most deliveryLogBytes of records, newest first kept, and the heap holds no more", async () => {
    const sim = await labelSubscriber({ deliveryLogBytes: MIB });
    const ids = Array.from({ length: 1_000 }, (_, i) => 1_000_000 + i);
    collect();
    const before = process.memoryUsage().heapUsed;
    const sent = 300;
    for (let i = 0; i < sent; i++) {
      const reply = await call(sim.baseUrl, "POST", "/__sim/events", { body: label(ids) });
      expect(reply.status).toBe(200);
    }
    receiver.arrivals.length = 0; // the receiver's memory is not the simulator's
    collect();
    const retained = process.memoryUsage().heapUsed - before;
    const listing = await call(sim.baseUrl, "GET", "/__sim/deliveries");
    expect(listing.status).toBe(200);
    const records = listing.json as Array<{ id: string }>;
    expect(records.length).toBeGreaterThan(10);
    expect(records.length).toBeLessThan(sent / 2);
    expect(listing.text.length).toBeLessThanOrEqual(MIB);
    expect(records.at(-1)?.id).toBe(sim.deliveries().at(-1)?.id);
    expect(retained).toBeLessThan(3 * MIB);
  });
});

/** A log of `entries` requests with bodies of `bodyChars` characters (no HTTP: the log alone). */
function fill(log: RequestLog, ring: KeyRing, entries: number, bodyChars: number, tag: string): void {
  for (let i = 0; i < entries; i++) {
    const req = { method: "POST", rawHeaders: ["Host", "127.0.0.1"] } as unknown as IncomingMessage;
    const entry = log.begin(req, "/webhook_subscriptions", "", ring);
    log.recordBody(
      entry,
      JSON.parse(JSON.stringify({ pad: `${tag}${i}`.padEnd(bodyChars, "p") })),
      bodyChars,
      ring,
    );
  }
}

/** Open a connection, ask for a listing, and read nothing (a stalled reader). */
function stalledReader(sim: RunningSimulator, path: string): Socket {
  const url = new URL(sim.baseUrl);
  const socket = connect({ host: url.hostname, port: Number(url.port) });
  socket.on("error", () => undefined);
  socket.write(`GET ${path} HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`);
  socket.pause();
  return socket;
}

/** GET /__sim/deliveries, asked again until it is answered `status` (within 10 s): that answer. */
function deliveriesAnswered(sim: RunningSimulator, status: number, what: string): Promise<Reply> {
  return eventually(
    async () => {
      const reply = await call(sim.baseUrl, "GET", "/__sim/deliveries");
      return reply.status === status ? reply : undefined;
    },
    10_000,
    what,
  );
}

describe("defect 4: stalled readers of a listing", () => {
  it("hold no copy of the log: entries dropped since a listing began are freed", () => {
    const budget = 8 * MIB;
    const ring = new KeyRing([{ name: "demo", keys: { readWrite: ["sim_demo_rw"] } }]);
    const log = new RequestLog(100_000, budget);
    collect();
    const before = process.memoryUsage().heapUsed;
    const readers: Array<Iterator<string>> = [];
    for (let generation = 0; generation < 6; generation++) {
      fill(log, ring, 220, 16_000, `g${generation}-`);
      const reader = log.listingChunks()[Symbol.iterator]();
      reader.next(); // the first chunk went out; the reader stopped reading
      readers.push(reader);
    }
    collect();
    const retained = process.memoryUsage().heapUsed - before;
    expect(log.size().bytes).toBeLessThanOrEqual(budget);
    expect(retained).toBeLessThan(budget);
    expect(readers).toHaveLength(6);
  });

  it("at most 8 listings stream at once (the next gets 429), and a stalled one is cut after listingTimeoutMs", async () => {
    // Long enough for all eight to be seen streaming together on a loaded machine, short enough to wait out.
    const sim = await startSim({ requestLogBytes: 64 * MIB, listingTimeoutMs: 2_500 });
    const padding = "p".repeat(14_000);
    for (let i = 0; i < 700; i += 10) {
      await Promise.all(
        Array.from({ length: 10 }, () =>
          call(sim.baseUrl, "GET", "/", { headers: { "x-padding": padding } }),
        ),
      );
    }
    const stalled = Array.from({ length: 8 }, () => stalledReader(sim, "/__sim/requests"));
    try {
      const refused = await deliveriesAnswered(sim, 429, "a listing refused with 429");
      expect(expectErrorShape(refused).message).toMatch(/listings/);
      expect(refused.headers["retry-after"]).toBe("1");
      const again = await deliveriesAnswered(sim, 200, "the stalled listings cut and a listing served again");
      expect(again.json).toEqual([]);
    } finally {
      for (const socket of stalled) socket.destroy();
    }
  });
});
