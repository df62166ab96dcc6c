/**
 * The late-apply fault (simulator/README.md, Faults): a write the service applies after its client gave up,
 * as behind a gateway or a slow backend. The request is read as it arrives, held, then applied whether or not
 * its client still waits; its client gets no answer, or a gateway's 504.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { api, call, expectErrorShape, socketError, startSim, subs, until } from "./helpers";

const ONE = subs(["order_status_change", "https://example.com/a"]);

describe("late-apply", () => {
  it("applies a POST after its client gave up: no answer, the write lands ms later", async () => {
    const sim = await startSim();
    sim.addFault({ kind: "late-apply", ms: 1_500, method: "POST", count: 1 });
    const code = await socketError(api(sim, "POST", "/webhook_subscriptions", { body: ONE, timeoutMs: 100 }));
    expect(code).toBe("TIMEOUT");
    expect(sim.subscriptions("demo")).toEqual([]);
    await until(() => (sim.subscriptions("demo").length > 0 ? true : undefined), 5_000, "the late write");
    expect(sim.subscriptions("demo")).toEqual([
      { id: 1, hook: "order_status_change", url: "https://example.com/a" },
    ]);
    expect(sim.requests()).toMatchObject([
      { method: "POST", status: 0, fault: "late-apply", appliedStatus: 200, body: ONE },
    ]);
  });

  it("behind a gateway: a 504 at once, a retry answered, then the first write lands over it (new id)", async () => {
    const sim = await startSim();
    sim.addFault({ kind: "late-apply", ms: 1_500, gatewayMs: 20, method: "POST", count: 1 });
    const first = await api(sim, "POST", "/webhook_subscriptions", { body: ONE });
    expect(first.status).toBe(504);
    expect(expectErrorShape(first).message).toMatch(/504 Gateway Timeout/);
    const retry = await api(sim, "POST", "/webhook_subscriptions", { body: ONE });
    expect(retry.json).toEqual({ data: { ids: [{ id: 1 }] } });
    await until(() => (sim.subscriptions("demo")[0]?.id === 2 ? true : undefined), 5_000, "the late write");
    expect(sim.subscriptions("demo")).toEqual([
      { id: 2, hook: "order_status_change", url: "https://example.com/a" },
    ]);
    expect(sim.requests().map((r) => [r.status, r.fault, r.appliedStatus])).toEqual([
      [504, "late-apply", 200],
      [200, undefined, undefined],
    ]);
  });

  it("untilClientGone: applied only once the client closed its connection", async () => {
    const sim = await startSim();
    sim.addFault({ kind: "late-apply", ms: 0, untilClientGone: true, method: "POST", count: 1 });
    const gaveUp = socketError(api(sim, "POST", "/webhook_subscriptions", { body: ONE, timeoutMs: 300 }));
    await until(() => (sim.requests().length === 1 ? true : undefined), 5_000, "the held request");
    expect(sim.subscriptions("demo")).toEqual([]);
    expect(await gaveUp).toBe("TIMEOUT");
    await until(() => (sim.subscriptions("demo").length > 0 ? true : undefined), 5_000, "the late write");
    expect(sim.requests()).toMatchObject([{ status: 0, fault: "late-apply", appliedStatus: 200 }]);
  });

  it("close() does not wait for a held request, and applies nothing after it", async () => {
    const dataFile = join(await mkdtemp(join(tmpdir(), "sim-late-")), "state.json");
    const sim = await startSim({ dataFile });
    sim.addFault({ kind: "late-apply", ms: 0, untilClientGone: true, method: "POST", count: 1 });
    // The client never gives up by itself (no timeout): were close() to wait for it, it would never return.
    const pending = socketError(api(sim, "POST", "/webhook_subscriptions", { body: ONE }));
    await until(() => (sim.requests().length === 1 ? true : undefined), 5_000, "the held request");
    await sim.close();
    expect(await pending).toMatch(/ECONNRESET|socket hang up/);
    expect(sim.requests()).toMatchObject([{ status: 0, fault: "late-apply" }]);
    expect(sim.requests()[0]?.appliedStatus).toBeUndefined();
    expect(sim.subscriptions("demo")).toEqual([]);
  });

  it("puts back an older URL when it lands after a newer write of the hook", async () => {
    const sim = await startSim();
    sim.addFault({ kind: "late-apply", ms: 1_500, method: "POST", count: 1 });
    const gaveUp = socketError(api(sim, "POST", "/webhook_subscriptions", { body: ONE, timeoutMs: 50 }));
    expect(await gaveUp).toBe("TIMEOUT");
    const newer = subs(["order_status_change", "https://example.com/b"]);
    expect((await api(sim, "POST", "/webhook_subscriptions", { body: newer })).status).toBe(200);
    await until(() => (sim.subscriptions("demo")[0]?.url.endsWith("/a") ? true : undefined), 5_000, "late");
    expect(sim.subscriptions("demo")).toEqual([
      { id: 2, hook: "order_status_change", url: "https://example.com/a" },
    ]);
  });

  it("is refused without ms, naming it", async () => {
    const sim = await startSim();
    expect(() => sim.addFault({ kind: "late-apply" } as never)).toThrow(/ms/);
    const reply = await call(sim.baseUrl, "POST", "/__sim/faults", {
      body: { kind: "late-apply", ms: 1, gatewayMs: -1 },
    });
    expect(reply.status).toBe(422);
    expect(expectErrorShape(reply).message).toContain("gatewayMs");
  });
});
