import { readFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { MAX_FAULTS } from "../../simulator/constants";
import { FaultList } from "../../simulator/faults";
import { InvalidInputError } from "../../simulator/index";
import { api, call, expectErrorShape, socketError, startSim, subs, until } from "./helpers";

const ONE = subs(["order_status_change", "https://example.com/a"]);

describe("latency", () => {
  it("delays matching requests, then answers normally; disappears after count", async () => {
    const sim = await startSim();
    sim.addFault({ kind: "latency", ms: 300, count: 1 });
    const start = performance.now();
    const reply = await api(sim, "GET", "/webhook_subscriptions");
    expect(performance.now() - start).toBeGreaterThanOrEqual(290);
    expect(reply.status).toBe(200);
    expect(sim.requests()[0]).toMatchObject({ status: 200, fault: "latency" });
    expect((await call(sim.baseUrl, "GET", "/__sim/faults")).json).toEqual([]);
    await api(sim, "GET", "/webhook_subscriptions");
    expect(sim.requests()[1]?.fault).toBeUndefined();
  });
});

describe("status", () => {
  it("answers the status with an error body for the next N matching requests, without processing", async () => {
    const sim = await startSim();
    sim.addFault({ kind: "status", status: 503, method: "POST", count: 2, retryAfterSeconds: 7 });
    const first = await api(sim, "POST", "/webhook_subscriptions", { body: ONE });
    expect(first.status).toBe(503);
    expect(first.headers["retry-after"]).toBe("7");
    expect(expectErrorShape(first).title).toBe("Service Unavailable");
    expect((await api(sim, "GET", "/webhook_subscriptions")).status).toBe(200);
    expect((await api(sim, "POST", "/webhook_subscriptions", { body: ONE })).status).toBe(503);
    expect(sim.subscriptions("demo")).toEqual([]);
    expect((await api(sim, "POST", "/webhook_subscriptions", { body: ONE })).status).toBe(200);
    expect(sim.requests().map((r) => [r.method, r.status, r.fault])).toEqual([
      ["POST", 503, "status"],
      ["GET", 200, undefined],
      ["POST", 503, "status"],
      ["POST", 200, undefined],
    ]);
  });

  it("applies to a share of matching requests with rate, deterministically", async () => {
    const sim = await startSim();
    sim.addFault({ kind: "status", status: 500, rate: 0.5, count: 6 });
    const got: number[] = [];
    for (let i = 0; i < 8; i++) got.push((await api(sim, "GET", "/webhook_subscriptions")).status);
    expect(got).toEqual([500, 200, 500, 200, 500, 200, 200, 200]);
  });

  it("can simulate 429 and applies until cleared when count is absent", async () => {
    const sim = await startSim();
    sim.addFault({ kind: "status", status: 429 });
    for (let i = 0; i < 3; i++) expect((await api(sim, "GET", "/")).status).toBe(429);
    sim.clearFaults();
    expect((await api(sim, "GET", "/")).status).toBe(200);
  });
});

describe("reset", () => {
  it("destroys the connection before processing: socket error, state unchanged", async () => {
    const sim = await startSim();
    sim.addFault({ kind: "reset", method: "post", count: 1 });
    expect(await socketError(api(sim, "POST", "/webhook_subscriptions", { body: ONE }))).toBe("ECONNRESET");
    expect(sim.subscriptions("demo")).toEqual([]);
    expect(sim.requests()).toMatchObject([{ method: "POST", status: 0, fault: "reset" }]);
    expect((await api(sim, "POST", "/webhook_subscriptions", { body: ONE })).status).toBe(200);
  });
});

describe("drop-after-write", () => {
  it("applies and persists the change, then drops the connection without answering", async () => {
    const dataFile = join(await mkdtemp(join(tmpdir(), "sim-fault-")), "state.json");
    const sim = await startSim({ dataFile });
    sim.addFault({ kind: "drop-after-write", method: "POST", count: 1 });
    expect(await socketError(api(sim, "POST", "/webhook_subscriptions", { body: ONE }))).toMatch(
      /ECONNRESET|socket hang up/,
    );
    expect(sim.subscriptions("demo")).toEqual([
      { id: 1, hook: "order_status_change", url: "https://example.com/a" },
    ]);
    expect(JSON.parse(readFileSync(dataFile, "utf8")).shops.demo).toHaveLength(1);
    expect(sim.requests()[0]).toMatchObject({ status: 0, fault: "drop-after-write", body: ONE });
  });

  it("also drops DELETE after deleting", async () => {
    const sim = await startSim();
    await api(sim, "POST", "/webhook_subscriptions", { body: ONE });
    sim.addFault({ kind: "drop-after-write", method: "DELETE" });
    await socketError(api(sim, "DELETE", "/webhook_subscriptions/1"));
    expect(sim.subscriptions("demo")).toEqual([]);
  });
});

describe("stall", () => {
  it("holds the request without answering; close() does not wait for it", async () => {
    const sim = await startSim();
    sim.addFault({ kind: "stall", method: "GET" });
    const stalled = socketError(api(sim, "GET", "/webhook_subscriptions", { timeoutMs: 200 }));
    expect(await stalled).toBe("TIMEOUT");
    expect(sim.requests()).toMatchObject([{ status: 0, fault: "stall" }]);

    const pending = socketError(api(sim, "GET", "/webhook_subscriptions"));
    await until(() => (sim.requests().length === 2 ? true : undefined), 5_000, "second stalled request");
    // A close that waited for the stalled request would never end (the stall has no end): it ends the request.
    await sim.close();
    expect(await pending).toMatch(/ECONNRESET|socket hang up/);
  });

  it("destroys the connection after ms", async () => {
    const sim = await startSim();
    sim.addFault({ kind: "stall", ms: 100, count: 1 });
    const start = performance.now();
    expect(await socketError(api(sim, "GET", "/"))).toMatch(/ECONNRESET|socket hang up/);
    expect(performance.now() - start).toBeGreaterThanOrEqual(90);
  });
});

describe("fault list", () => {
  it("never touches control endpoints", async () => {
    const sim = await startSim();
    sim.addFault({ kind: "status", status: 500 });
    expect((await call(sim.baseUrl, "GET", "/__sim/state")).status).toBe(200);
    expect((await call(sim.baseUrl, "GET", "/__sim/faults")).json).toEqual([
      { spec: { kind: "status", status: 500 }, matched: 0 },
    ]);
  });

  it("walks faults in order: latency adds up, the first terminal fault decides", async () => {
    const sim = await startSim();
    sim.addFault({ kind: "latency", ms: 100, count: 1 });
    sim.addFault({ kind: "status", status: 502, count: 1 });
    sim.addFault({ kind: "reset", count: 1 });
    const start = performance.now();
    expect((await api(sim, "GET", "/")).status).toBe(502);
    expect(performance.now() - start).toBeGreaterThanOrEqual(90);
    expect(sim.requests()[0]?.fault).toBe("status");
    expect(await socketError(api(sim, "GET", "/"))).toBe("ECONNRESET");
    expect((await api(sim, "GET", "/")).status).toBe(200);
  });

  it("rejects invalid faults", async () => {
    const sim = await startSim();
    expect(() => sim.addFault({ kind: "status", status: 200 })).toThrow(InvalidInputError);
    expect(() => sim.addFault({ kind: "boom" } as never)).toThrow(/kind/);
    const reply = await call(sim.baseUrl, "POST", "/__sim/faults", { body: { kind: "latency" } });
    expect(reply.status).toBe(422);
    expect((reply.json as { message: string }).message).toContain("ms");
  });

  it("FaultList.plan counts matched requests only", () => {
    const list = new FaultList();
    list.add({ kind: "reset", method: "DELETE", count: 2 });
    expect(list.plan("GET")).toEqual({ latencyMs: 0 });
    expect(list.plan("DELETE").terminal?.kind).toBe("reset");
    expect(list.list()).toEqual([
      { spec: { kind: "reset", method: "DELETE", count: 2 }, remaining: 1, matched: 1 },
    ]);
    list.plan("DELETE");
    expect(list.list()).toEqual([]);
  });

  it("request narrows a fault to the listing or to id lists, and after keeps it dormant until that method came", () => {
    const list = new FaultList();
    list.add({ kind: "status", status: 500, method: "GET", request: "ids", after: "POST" });
    list.add({ kind: "status", status: 503, method: "GET", request: "listing", after: "POST", count: 1 });
    const get = (path: string) => list.plan({ method: "GET", path }).terminal;
    expect(get("/webhook_subscriptions/")).toBeUndefined(); // dormant: no POST yet
    expect(get("/webhook_subscriptions/1;2")).toBeUndefined();
    expect(list.plan({ method: "POST", path: "/webhook_subscriptions" }).terminal).toBeUndefined();
    expect(get("/webhook_subscriptions/1;2")).toMatchObject({ status: 500 });
    expect(get("/webhook_subscriptions/3")).toMatchObject({ status: 500 });
    expect(get("/webhook_subscriptions/")).toMatchObject({ status: 503 });
    expect(get("/webhook_subscriptions/")).toBeUndefined(); // its one count is spent
  });

  it("after a POST, the read-back of the written ids fails over HTTP while the listing before it passed", async () => {
    const sim = await startSim();
    sim.addFault({ kind: "status", status: 500, method: "GET", request: "ids", after: "POST" });
    expect((await api(sim, "GET", "/webhook_subscriptions/")).status).toBe(200);
    const posted = await api(sim, "POST", "/webhook_subscriptions", {
      body: subs(["order_status_change", "https://h.example.com/o"]),
    });
    expect(posted.status).toBe(200);
    expect((await api(sim, "GET", "/webhook_subscriptions/1")).status).toBe(500);
    expect((await api(sim, "GET", "/webhook_subscriptions/")).status).toBe(200);
  });
});

describe("durations beyond a Node timer (2^31-1 ms)", () => {
  const MAX_TIMER_MS = 2 ** 31 - 1;

  it.each([
    ["stall", { kind: "stall", ms: 3e9 }],
    ["latency", { kind: "latency", ms: MAX_TIMER_MS + 1 }],
  ])("a %s fault longer than 2^31-1 ms is refused with 422 naming ms", async (_kind, fault) => {
    const sim = await startSim();
    const reply = await call(sim.baseUrl, "POST", "/__sim/faults", { body: fault });
    expect(reply.status).toBe(422);
    expect(expectErrorShape(reply).message).toMatch(/ms: .*2147483647/);
    expect(() => sim.addFault(fault as Parameters<typeof sim.addFault>[0])).toThrow(InvalidInputError);
    expect(sim.requests()).toEqual([]);
  });

  it("latency faults that add up past 2^31-1 ms still hold the request (no 1 ms overflow)", async () => {
    const sim = await startSim();
    sim.addFault({ kind: "latency", ms: MAX_TIMER_MS });
    sim.addFault({ kind: "latency", ms: MAX_TIMER_MS });
    const code = await socketError(api(sim, "GET", "/webhook_subscriptions", { timeoutMs: 300 }));
    expect(code).toBe("TIMEOUT");
    expect(sim.requests()[0]).toMatchObject({ status: 0, fault: "latency" });
  });
});

describe("the fault list is bounded", () => {
  it(`refuses a fault past MAX_FAULTS (${MAX_FAULTS}) with 422, so each answer lists at most ${MAX_FAULTS}`, async () => {
    const sim = await startSim();
    const fault = { kind: "latency", ms: 1, method: "DELETE" };
    let last = await call(sim.baseUrl, "POST", "/__sim/faults", { body: fault });
    for (let i = 1; i < MAX_FAULTS; i += 1)
      last = await call(sim.baseUrl, "POST", "/__sim/faults", { body: fault });
    expect(last.status).toBe(201);
    expect(last.json).toHaveLength(MAX_FAULTS);
    const refused = await call(sim.baseUrl, "POST", "/__sim/faults", { body: fault });
    expect(refused.status).toBe(422);
    expect(expectErrorShape(refused).message).toContain(`at most ${MAX_FAULTS} faults are active`);
    expect(() => sim.addFault({ kind: "latency", ms: 1 })).toThrow(InvalidInputError);
    expect((await call(sim.baseUrl, "DELETE", "/__sim/faults")).status).toBe(204);
    expect((await call(sim.baseUrl, "POST", "/__sim/faults", { body: fault })).status).toBe(201);
  });
});
