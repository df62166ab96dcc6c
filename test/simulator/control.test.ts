import { describe, expect, it } from "vitest";
import { type ControlTarget, handleControl } from "../../simulator/control";
import { isLoopbackAddress } from "../../simulator/controlGuard";
import { ApiError } from "../../simulator/errors";
import type { RunningSimulator } from "../../simulator/index";
import { api, call, startSim, subs } from "./helpers";

const A = "https://example.com/a";

function target(sim: RunningSimulator): ControlTarget {
  // The running simulator carries the control extras too (simulator.ts).
  return sim as unknown as ControlTarget;
}

describe("control endpoints", () => {
  it("GET /__sim/state answers the state", async () => {
    const sim = await startSim();
    await api(sim, "POST", "/webhook_subscriptions", { body: subs(["order_status_change", A]) });
    const reply = await call(sim.baseUrl, "GET", "/__sim/state");
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({
      nextId: 2,
      shops: { demo: [{ id: 1, hook: "order_status_change", url: A }] },
    });
    expect(reply.json).toEqual(sim.state());
  });

  it("GET and DELETE /__sim/requests; control requests are never logged", async () => {
    const sim = await startSim();
    await api(sim, "GET", "/webhook_subscriptions");
    await call(sim.baseUrl, "GET", "/__sim/state");
    const reply = await call(sim.baseUrl, "GET", "/__sim/requests");
    expect(reply.json).toEqual(sim.requests());
    expect(sim.requests()).toMatchObject([{ seq: 1, path: "/webhook_subscriptions" }]);
    expect((await call(sim.baseUrl, "DELETE", "/__sim/requests")).status).toBe(204);
    expect(sim.requests()).toEqual([]);
    await api(sim, "GET", "/");
    expect(sim.requests()).toMatchObject([{ seq: 2 }]);
    sim.clearRequests();
    expect(sim.requests()).toEqual([]);
  });

  it("POST /__sim/reset empties subscriptions, counters, log, faults and windows; keeps shops and switches", async () => {
    const sim = await startSim({
      switches: { getStatus: 201, rateLimit: { windowMs: 60_000, post: 1, get: 5, delete: 1 } },
    });
    await api(sim, "POST", "/webhook_subscriptions", { body: subs(["order_status_change", A]) });
    expect(
      (await api(sim, "POST", "/webhook_subscriptions", { body: subs(["order_status_change", A]) })).status,
    ).toBe(429);
    sim.addFault({ kind: "latency", ms: 1 });
    expect((await call(sim.baseUrl, "POST", "/__sim/reset")).status).toBe(204);
    expect(sim.state()).toEqual({ nextId: 1, shops: { demo: [] } });
    expect(sim.requests()).toEqual([]);
    expect((await call(sim.baseUrl, "GET", "/__sim/faults")).json).toEqual([]);
    expect(sim.switches().getStatus).toBe(201);
    const reply = await api(sim, "POST", "/webhook_subscriptions", {
      body: subs(["order_status_change", A]),
    });
    expect(reply.json).toEqual({ data: { ids: [{ id: 1 }] } });
    expect(sim.requests()).toMatchObject([{ seq: 1, status: 200 }]);
  });

  it("GET/POST/DELETE /__sim/faults", async () => {
    const sim = await startSim();
    const added = await call(sim.baseUrl, "POST", "/__sim/faults", {
      body: { kind: "status", status: 500, count: 1 },
    });
    expect(added.status).toBe(201);
    expect(added.json).toEqual([
      { spec: { kind: "status", status: 500, count: 1 }, remaining: 1, matched: 0 },
    ]);
    expect((await api(sim, "GET", "/")).status).toBe(500);
    await call(sim.baseUrl, "POST", "/__sim/faults", { body: { kind: "reset" } });
    expect((await call(sim.baseUrl, "GET", "/__sim/faults")).json).toEqual([
      { spec: { kind: "reset" }, matched: 0 },
    ]);
    expect((await call(sim.baseUrl, "DELETE", "/__sim/faults")).status).toBe(204);
    expect((await api(sim, "GET", "/")).status).toBe(200);
  });

  it("GET /__sim/deliveries answers the (empty) delivery list", async () => {
    const sim = await startSim();
    expect((await call(sim.baseUrl, "GET", "/__sim/deliveries")).json).toEqual([]);
  });

  it("answers 404 / 405 / 400 / 422 in the error shape", async () => {
    const sim = await startSim();
    expect((await call(sim.baseUrl, "GET", "/__sim/nope")).status).toBe(404);
    expect((await call(sim.baseUrl, "GET", "/__sim/constructor")).status).toBe(404);
    const wrong = await call(sim.baseUrl, "PUT", "/__sim/faults");
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toBe("GET, HEAD, POST, DELETE");
    const bad = await call(sim.baseUrl, "PATCH", "/__sim/switches", {
      headers: { "content-type": "application/json" },
      body: "{x",
    });
    expect(bad.status).toBe(400);
    expect((await call(sim.baseUrl, "POST", "/__sim/events", { body: { kind: "nope" } })).status).toBe(422);
    expect(sim.requests()).toEqual([]);
  });

  it("refuses non-loopback peers with 403", async () => {
    const sim = await startSim();
    const request = (remoteAddress: string | undefined) => ({
      method: "GET",
      path: "/__sim/state",
      remoteAddress,
      readJson: async () => ({}),
    });
    for (const peer of ["10.0.0.1", "192.168.1.2", "::ffff:10.0.0.1", "2001:db8::1", undefined]) {
      const error = await handleControl(target(sim), request(peer)).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(403);
    }
    for (const peer of ["127.0.0.1", "127.1.2.3", "::1", "::ffff:127.0.0.1"]) {
      expect((await handleControl(target(sim), request(peer))).status).toBe(200);
    }
  });

  it("counts only 127.0.0.0/8 and ::1 (also as IPv4-mapped) as loopback peers", () => {
    expect(
      ["127.0.0.1", "127.255.0.9", "::1", "0:0:0:0:0:0:0:1", "::ffff:127.0.0.1"].every(isLoopbackAddress),
    ).toBe(true);
    expect(
      ["10.0.0.1", "128.0.0.1", "::2", "::ffff:10.0.0.1", "localhost", "", "1270.0.0.1"].some(
        isLoopbackAddress,
      ),
    ).toBe(false);
    expect(isLoopbackAddress(undefined)).toBe(false);
  });
});

describe("options", () => {
  it.each(["0.0.0.0", "192.168.1.1", "::", "example.com"])("refuses host %s", async (host) => {
    await expect(startSim({ host })).rejects.toThrow(/not a loopback address/);
  });

  it("binds ::1 and localhost", async () => {
    const v6 = await startSim({ host: "::1" });
    expect(v6.baseUrl).toMatch(/^http:\/\/\[::1\]:\d+$/);
    expect((await call(v6.baseUrl, "GET", "/")).status).toBe(200);
    const named = await startSim({ host: "localhost" });
    expect((await call(named.baseUrl, "GET", "/")).status).toBe(200);
  });

  it("answers a baseUrl without trailing slash on an ephemeral port", async () => {
    const sim = await startSim();
    expect(sim.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it.each([
    [[], /shops/],
    [[{ name: "a", keys: { readWrite: [] } }], /readWrite/],
    [[{ name: "a b", keys: { readWrite: ["k"] } }], /name/],
    [[{ name: "a", keys: { readWrite: ["has space"] } }], /readWrite/],
    [
      [
        { name: "a", keys: { readWrite: ["k"] } },
        { name: "a", keys: { readWrite: ["j"] } },
      ],
      /used twice/,
    ],
    [
      [
        { name: "a", keys: { readWrite: ["secret-k"] } },
        { name: "b", keys: { readWrite: ["x"], readOnly: ["secret-k"] } },
      ],
      /reuses an API key/,
    ],
  ])("rejects bad shop seeds %#", async (shops, problem) => {
    const error = await startSim({ shops: shops as never }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(problem);
    expect(error?.message).not.toContain("secret-k");
  });

  it("bounds the request log to requestLogLimit entries, keeping the newest", async () => {
    const sim = await startSim({ requestLogLimit: 3 });
    for (let i = 0; i < 5; i++) await call(sim.baseUrl, "GET", `/?n=${i}`);
    expect(sim.requests().map((r) => [r.seq, r.query])).toEqual([
      [3, "n=2"],
      [4, "n=3"],
      [5, "n=4"],
    ]);
  });

  it("rejects a bad port or requestLogLimit", async () => {
    await expect(startSim({ port: 70_000 })).rejects.toThrow(/port/);
    await expect(startSim({ requestLogLimit: 0 })).rejects.toThrow(/requestLogLimit/);
  });

  it("state(), subscriptions() and requests() answer copies", async () => {
    const sim = await startSim();
    await api(sim, "POST", "/webhook_subscriptions", { body: subs(["order_status_change", A]) });
    const state = sim.state();
    state.shops.demo?.pop();
    const [sub] = sim.subscriptions("demo");
    if (sub !== undefined) sub.url = "changed";
    const [entry] = sim.requests();
    if (entry !== undefined) entry.status = 1;
    expect(sim.subscriptions("demo")).toEqual([{ id: 1, hook: "order_status_change", url: A }]);
    expect(sim.requests()[0]?.status).toBe(200);
    expect(sim.subscriptions("unknown-shop")).toEqual([]);
  });
});
