import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { RunningSimulator } from "../../simulator/index";
import { RateLimiter } from "../../simulator/rateLimit";
import { api, auth, expectErrorShape, RO_KEY, startSim, subs } from "./helpers";

const T0 = new Date("2030-01-01T00:00:00Z").getTime();
const ONE = subs(["order_status_change", "https://example.com/a"]);

beforeEach(() => {
  // Only Date is faked: the simulator runs in this process, so its sliding window follows the test clock.
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(T0);
});
afterEach(() => {
  vi.useRealTimers();
});

async function statuses(sim: RunningSimulator, method: string, path: string, n: number, body?: unknown) {
  const out: number[] = [];
  for (let i = 0; i < n; i++)
    out.push((await api(sim, method, path, body === undefined ? {} : { body })).status);
  return out;
}

describe("rateLimit off", () => {
  it("never answers 429", async () => {
    const sim = await startSim({ switches: { rateLimit: "off" } });
    expect(new Set(await statuses(sim, "GET", "/webhook_subscriptions", 160))).toEqual(new Set([200]));
    expect(new Set(await statuses(sim, "POST", "/webhook_subscriptions", 35, ONE))).toEqual(new Set([200]));
  });
});

describe("rateLimit production", () => {
  it("allows POST 30, GET 150, DELETE 30 per key, then 429 without Retry-After", async () => {
    const sim = await startSim({ switches: { rateLimit: "production" } });
    const posts = await statuses(sim, "POST", "/webhook_subscriptions", 31, ONE);
    expect(posts.slice(0, 30).every((s) => s === 200)).toBe(true);
    expect(posts[30]).toBe(429);
    const gets = await statuses(sim, "GET", "/webhook_subscriptions", 151);
    expect(gets.filter((s) => s === 200)).toHaveLength(150);
    expect(gets[150]).toBe(429);
    const deletes = await statuses(sim, "DELETE", "/webhook_subscriptions/999", 31);
    expect(deletes.filter((s) => s === 404)).toHaveLength(30);
    expect(deletes[30]).toBe(429);

    const limited = await api(sim, "GET", "/webhook_subscriptions");
    expect(limited.status).toBe(429);
    expect(limited.headers["retry-after"]).toBeUndefined();
    const error = expectErrorShape(limited);
    expect(error).toMatchObject({ code: 0, title: "Too many requests" });
    expect(error.message).toContain("at most 150 GET requests per 300000 ms");
    expect(sim.requests().at(-1)).toMatchObject({ status: 429, shop: "demo" });

    // Another key of the same shop has its own windows.
    expect(
      (await api(sim, "GET", "/webhook_subscriptions", { headers: { authorization: auth(RO_KEY) } })).status,
    ).toBe(200);
    // Five minutes later the window has slid past the first requests.
    vi.setSystemTime(T0 + 300_000);
    expect((await api(sim, "GET", "/webhook_subscriptions")).status).toBe(200);
  });

  it("does not count requests without valid credentials", async () => {
    const sim = await startSim({ switches: { rateLimit: { windowMs: 1000, post: 1, get: 1, delete: 1 } } });
    for (let i = 0; i < 3; i++) {
      const reply = await api(sim, "GET", "/webhook_subscriptions", {
        headers: { authorization: "bearer eA==" },
      });
      expect(reply.status).toBe(401);
    }
    expect((await api(sim, "GET", "/webhook_subscriptions")).status).toBe(200);
  });
});

describe("custom rate limit", () => {
  it("slides, counts 429s as requests, and sends Retry-After when retryAfter is true", async () => {
    const sim = await startSim({
      switches: { rateLimit: { windowMs: 10_000, post: 5, get: 2, delete: 5 }, retryAfter: true },
    });
    expect(await statuses(sim, "GET", "/webhook_subscriptions", 2)).toEqual([200, 200]);
    const first = await api(sim, "GET", "/webhook_subscriptions");
    expect(first.status).toBe(429);
    expect(first.headers["retry-after"]).toBe("10");

    vi.setSystemTime(T0 + 5_000);
    const second = await api(sim, "GET", "/webhook_subscriptions");
    expect(second.status).toBe(429);
    expect(second.headers["retry-after"]).toBe("5");

    vi.setSystemTime(T0 + 10_000);
    expect((await api(sim, "GET", "/webhook_subscriptions")).status).toBe(200);
    // The 429 at T0+5s still counts: only one slot freed.
    const third = await api(sim, "GET", "/webhook_subscriptions");
    expect(third.status).toBe(429);
    expect(third.headers["retry-after"]).toBe("10");
    // Other methods have their own window.
    expect((await api(sim, "POST", "/webhook_subscriptions", { body: ONE })).status).toBe(200);
  });

  it("without retryAfter the 429 has no Retry-After", async () => {
    const sim = await startSim({ switches: { rateLimit: { windowMs: 10_000, post: 1, get: 1, delete: 1 } } });
    await api(sim, "GET", "/webhook_subscriptions");
    const reply = await api(sim, "GET", "/webhook_subscriptions");
    expect(reply.status).toBe(429);
    expect(reply.headers["retry-after"]).toBeUndefined();
  });

  it("a limit of 0 always answers 429", async () => {
    const sim = await startSim({
      switches: { rateLimit: { windowMs: 1000, post: 0, get: 1, delete: 1 }, retryAfter: true },
    });
    const reply = await api(sim, "POST", "/webhook_subscriptions", { body: ONE });
    expect(reply.status).toBe(429);
    expect(reply.headers["retry-after"]).toBe("1");
  });

  it("changing the limit at run time starts fresh windows; turning it off lifts it", async () => {
    const sim = await startSim({ switches: { rateLimit: { windowMs: 60_000, post: 1, get: 1, delete: 1 } } });
    expect(await statuses(sim, "GET", "/webhook_subscriptions", 2)).toEqual([200, 429]);
    sim.setSwitches({ rateLimit: { windowMs: 60_000, post: 1, get: 2, delete: 1 } });
    expect(await statuses(sim, "GET", "/webhook_subscriptions", 3)).toEqual([200, 200, 429]);
    sim.setSwitches({ retryAfter: true });
    expect(await statuses(sim, "GET", "/webhook_subscriptions", 1)).toEqual([429]);
    sim.setSwitches({ rateLimit: "off" });
    expect(await statuses(sim, "GET", "/webhook_subscriptions", 3)).toEqual([200, 200, 200]);
  });
});

describe("RateLimiter", () => {
  it("keeps a sliding window per key and method", () => {
    const limiter = new RateLimiter();
    const settings = { windowMs: 1000, post: 2, get: 3, delete: 1 };
    const at = (key: string, method: string, now: number) =>
      limiter.check(settings, key, method, now).allowed;
    expect([at("k", "GET", 0), at("k", "GET", 100), at("k", "GET", 200), at("k", "GET", 300)]).toEqual([
      true,
      true,
      true,
      false,
    ]);
    expect(at("k", "POST", 300)).toBe(true);
    expect(at("j", "GET", 300)).toBe(true);
    // Window holds 100, 200, 300 (the 429 counts): the next slot frees at 1100.
    expect(limiter.check(settings, "k", "GET", 1099)).toMatchObject({ allowed: false });
    expect(at("k", "GET", 1300)).toBe(true);
    limiter.clear();
    expect(at("k", "DELETE", 1300)).toBe(true);
    expect(limiter.check(settings, "k", "DELETE", 1400)).toEqual({
      allowed: false,
      limit: 1,
      retryAfterSeconds: 1,
    });
  });
});
