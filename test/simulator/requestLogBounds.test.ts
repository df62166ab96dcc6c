/**
 * The request log is bounded by bytes as well as entries, listed as a stream, and never recurses over what
 * a client sent: bodies nested 100,000 levels deep are logged and listed like any other.
 */
import type { IncomingMessage } from "node:http";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { KeyRing } from "../../simulator/auth";
import { InvalidInputError, startSimulator } from "../../simulator/index";
import { RequestLog } from "../../simulator/requestLog";
import { api, call, expectErrorShape, startSim } from "./helpers";

const A = "https://example.com/a";
const MIB = 1024 * 1024;

/** `{"x":{"x":...1...}}` nested `depth` levels, as text (built without recursion). */
function nested(depth: number): string {
  return `${'{"x":'.repeat(depth)}1${"}".repeat(depth)}`;
}

/** A valid POST body whose item carries an extra field `extra` given as JSON text. */
function validWithExtra(extraJson: string, hook = "order_status_change"): string {
  return `{"data":{"webhook_subscriptions":[{"hook":"${hook}","url":"${A}","extra":${extraJson}}]}}`;
}

/** A full garbage collection (exposed at run time, as `node --expose-gc` would). */
function collect(): void {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

describe("memory", () => {
  it("holds no more heap than requestLogBytes, bodies and previews included", () => {
    const budget = 8 * MIB;
    const ring = new KeyRing([{ name: "demo", keys: { readWrite: ["sim_demo_rw"] } }]);
    collect();
    const before = process.memoryUsage().heapUsed;
    const log = new RequestLog(100_000, budget);
    for (let i = 0; i < 3_000; i++) {
      const rawHeaders = ["Host", "127.0.0.1:4010", "User-Agent", "CustomApiCall/2", "X-N", String(i)];
      const entry = log.begin(
        { method: "POST", rawHeaders } as unknown as IncomingMessage,
        "/webhook_subscriptions",
        "",
        ring,
      );
      const body = JSON.parse(JSON.stringify({ pad: `${i}`.repeat(20_000 / String(i).length) })) as unknown;
      log.recordBody(entry, body, 20_000, ring);
    }
    collect();
    const retained = process.memoryUsage().heapUsed - before;
    expect(log.size().bytes).toBeLessThanOrEqual(budget);
    expect(log.size().entries).toBeGreaterThan(500);
    expect(retained).toBeLessThan(budget);
  });

  it("drops the oldest entries once the log holds requestLogBytes, keeping the newest", async () => {
    const sim = await startSim({ requestLogBytes: MIB });
    const padding = "p".repeat(8 * 1024);
    const sent = 300;
    for (let i = 0; i < sent; i++) {
      await api(sim, "GET", "/webhook_subscriptions", { headers: { "x-padding": padding } });
    }
    const entries = sim.requests();
    expect(entries.length).toBeLessThan(sent / 2);
    expect(entries.at(-1)?.seq).toBe(sent);
    // Charged at two bytes per character, so the strings kept are at most half the budget.
    const kept = entries.reduce((sum, e) => sum + (e.headers["x-padding"]?.length ?? 0), 0);
    expect(kept).toBeLessThanOrEqual(MIB / 2);
  });

  it("keeps a body over 16 KiB of JSON as a 4 KiB preview, and says so", async () => {
    const sim = await startSim();
    const big = validWithExtra(JSON.stringify("b".repeat(MIB - 200)));
    const reply = await api(sim, "POST", "/webhook_subscriptions", {
      body: big,
      headers: { "content-type": "application/json" },
    });
    expect(reply.status).toBe(200);
    const [entry] = sim.requests();
    expect(entry).toMatchObject({ status: 200, bodyBytes: Buffer.byteLength(big), bodyTruncated: true });
    expect(entry?.body).toBeUndefined();
    expect(entry?.bodyPreview).toHaveLength(4096);
    expect(big.startsWith((entry?.bodyPreview ?? "").slice(0, 40))).toBe(true);
  });

  it("GET /__sim/requests streams the listing (chunked), equal to requests()", async () => {
    const sim = await startSim();
    for (let i = 0; i < 50; i++) await api(sim, "GET", `/webhook_subscriptions/${i + 1}`);
    const reply = await call(sim.baseUrl, "GET", "/__sim/requests");
    expect(reply.status).toBe(200);
    expect(reply.headers["transfer-encoding"]).toBe("chunked");
    expect(reply.headers["content-length"]).toBeUndefined();
    expect(reply.json).toEqual(sim.requests());
  });

  it("refuses a requestLogBytes below 1 MiB, naming the option", async () => {
    // startSimulator itself, not startSim: the start is what must fail.
    await expect(startSimulator({ requestLogBytes: 1000 })).rejects.toThrow(InvalidInputError);
    await expect(startSimulator({ requestLogBytes: 1000 })).rejects.toThrow(/requestLogBytes/);
  });
});

describe("depth", () => {
  it("a valid POST with an extra field nested 5,000 deep is answered, logged whole and listed", async () => {
    const sim = await startSim();
    const depth = 5_000;
    const reply = await api(sim, "POST", "/webhook_subscriptions", {
      body: validWithExtra(`${"[".repeat(depth)}${"]".repeat(depth)}`),
      headers: { "content-type": "application/json" },
    });
    expect(reply.status).toBe(200);
    const listed = await call(sim.baseUrl, "GET", "/__sim/requests");
    expect(listed.status).toBe(200);
    for (const entries of [listed.json, sim.requests()] as Array<Array<{ body?: unknown }>>) {
      const body = entries[0]?.body as { data?: { webhook_subscriptions?: Array<{ extra: unknown }> } };
      const extra = body?.data?.webhook_subscriptions?.[0]?.extra;
      let levels = 0;
      for (let at = extra; Array.isArray(at); at = at[0]) levels += 1;
      expect(levels).toBe(depth);
    }
    expect(sim.subscriptions("demo")).toHaveLength(1);
  });

  it("a valid POST with an extra field nested 100,000 deep is answered and logged as a preview", async () => {
    const sim = await startSim();
    const body = validWithExtra(nested(100_000));
    const reply = await api(sim, "POST", "/webhook_subscriptions", {
      body,
      headers: { "content-type": "application/json" },
    });
    expect(reply.status).toBe(200);
    const listed = await call(sim.baseUrl, "GET", "/__sim/requests");
    expect(listed.status).toBe(200);
    expect(listed.json).toMatchObject([{ status: 200, bodyTruncated: true, bodyBytes: body.length }]);
    expect(sim.subscriptions("demo")).toHaveLength(1);
  });

  it("a deep hook value is a 422 naming the field, not a 500", async () => {
    const sim = await startSim();
    const body = `{"data":{"webhook_subscriptions":[{"hook":${nested(5_000)},"url":"${A}"}]}}`;
    const reply = await api(sim, "POST", "/webhook_subscriptions", {
      body,
      headers: { "content-type": "application/json" },
    });
    expect(reply.status).toBe(422);
    expect(expectErrorShape(reply).message).toMatch(/hook is an object; it must be one of/);
  });

  it.each([
    ["PATCH", "/__sim/switches"],
    ["POST", "/__sim/faults"],
    ["POST", "/__sim/events"],
  ])("%s %s with a body nested 100,000 deep is a 4xx", async (method, path) => {
    const sim = await startSim();
    const reply = await call(sim.baseUrl, method, path, {
      body: `{"kind":"latency","ms":1,"deep":${nested(100_000)}}`,
      headers: { "content-type": "application/json" },
    });
    expect(reply.status).toBe(422);
    expectErrorShape(reply);
  });

  it.each([
    ["an object", nested(100_000)],
    ["an array", `${"[".repeat(100_000)}${"]".repeat(100_000)}`],
  ])(
    "POST /__sim/events with set.status %s nested 100,000 deep is a 422 naming the field, not a 500",
    async (_, deep) => {
      const sim = await startSim();
      const reply = await call(sim.baseUrl, "POST", "/__sim/events", {
        body: `{"kind":"shipment_status_change","set":{"status":${deep}}}`,
        headers: { "content-type": "application/json" },
      });
      expect(reply.status).toBe(422);
      const message = expectErrorShape(reply).message;
      expect(message).toMatch(/set\.status: must be a known shipment status/);
      expect(message.length).toBeLessThan(1_000);
    },
  );
});
