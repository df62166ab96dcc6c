import { describe, expect, it } from "vitest";
import { KeyRing, redactAuthorization } from "../../simulator/auth";
import type { RunningSimulator } from "../../simulator/index";
import {
  auth,
  b64,
  call,
  errorOf,
  expectErrorShape,
  OTHER_KEY,
  RO_KEY,
  RW_KEY,
  startSim,
  subs,
  TWO_SHOPS,
} from "./helpers";

const get = (sim: RunningSimulator, authorization?: string, extra: Record<string, string> = {}) =>
  call(sim.baseUrl, "GET", "/webhook_subscriptions", {
    headers: authorization === undefined ? extra : { authorization, ...extra },
  });

describe("authScheme switch", () => {
  it.each([
    ["both", { bearer: 200, basic: 200, Bearer: 200, BASIC: 200, token: 401 }],
    ["bearer", { bearer: 200, basic: 401, Bearer: 200, BASIC: 401, token: 401 }],
    ["basic", { bearer: 401, basic: 200, Bearer: 401, BASIC: 200, token: 401 }],
  ] as const)("%s: accepts exactly its words, case-insensitively", async (authScheme, expected) => {
    const sim = await startSim({ switches: { authScheme } });
    for (const [word, status] of Object.entries(expected)) {
      const reply = await get(sim, `${word} ${b64(RW_KEY)}`);
      expect([word, reply.status]).toEqual([word, status]);
      if (status === 401) {
        expect(expectErrorShape(reply)).toMatchObject({ code: 3103, title: "Invalid Authorization header" });
        expect(errorOf(reply).errors[0]?.message).toContain(`"${word.toLowerCase()}" is not accepted`);
      }
    }
    expect(sim.requests().map((r) => r.authScheme)).toEqual(
      Object.keys(expected).map((w) => w.toLowerCase()),
    );
  });

  it("can be changed at run time", async () => {
    const sim = await startSim();
    expect((await get(sim, auth(RW_KEY, "basic"))).status).toBe(200);
    sim.setSwitches({ authScheme: "bearer" });
    expect((await get(sim, auth(RW_KEY, "basic"))).status).toBe(401);
    expect((await get(sim, auth(RW_KEY, "bearer"))).status).toBe(200);
  });

  it("names the accepted words in the 401 hint", async () => {
    const sim = await startSim({ switches: { authScheme: "bearer" } });
    const reply = await get(sim);
    expect(errorOf(reply).errors[0]?.message).toBe(
      'Authorization header is missing; send "Authorization: bearer <base64 of your API key>"',
    );
  });
});

describe("401 Unauthorized (code 3103)", () => {
  it.each([
    ["missing", undefined, "is missing"],
    ["empty", "", "is missing"],
    ["one word", `${b64(RW_KEY)}`, "is malformed"],
    ["three words", `bearer ${b64(RW_KEY)} x`, "is malformed"],
    ["raw key", `bearer ${RW_KEY}`, "must be the base64 of the API key, not the key itself"],
    ["not base64", "bearer %%%", "is not valid base64"],
    ["unknown key", `bearer ${b64("nope")}`, "API key is unknown"],
  ])("%s", async (_name, authorization, text) => {
    const sim = await startSim();
    const reply = await get(sim, authorization);
    expect(reply.status).toBe(401);
    expect(expectErrorShape(reply).message).toContain(text);
    const [entry] = sim.requests();
    expect(entry?.status).toBe(401);
    expect(entry?.shop).toBeUndefined();
  });

  it("accepts base64 without padding", async () => {
    const sim = await startSim();
    expect((await get(sim, `bearer ${b64(RW_KEY).replace(/=+$/, "")}`)).status).toBe(200);
  });

  it("identifies the shop and role of each key", async () => {
    const sim = await startSim({ shops: TWO_SHOPS });
    await get(sim, auth(RO_KEY));
    await get(sim, auth(OTHER_KEY));
    expect(sim.requests().map((r) => [r.shop, r.keyRole])).toEqual([
      ["demo", "read-only"],
      ["other", "read-write"],
    ]);
  });
});

describe("keys never leak", () => {
  it("neither the raw key nor its base64 appears in requests() or any error body", async () => {
    const sim = await startSim();
    const secrets = [RW_KEY, b64(RW_KEY), b64(RW_KEY).replace(/=+$/, ""), RO_KEY, b64(RO_KEY)];
    const replies = [
      await get(sim, auth()),
      await get(sim, `bearer ${RW_KEY}`),
      await get(sim, `${RW_KEY} ${RW_KEY}`),
      await get(sim, `${b64(RW_KEY)} x`),
      await get(sim, RW_KEY),
      await get(sim, `token ${b64(RW_KEY)}`),
      await get(sim, `bearer ${b64(RW_KEY)}`, { "x-api-key": RW_KEY, "user-agent": `agent ${b64(RO_KEY)}` }),
      await call(sim.baseUrl, "GET", `/webhook_subscriptions/${RW_KEY}?key=${b64(RW_KEY)}`, {
        headers: { authorization: auth() },
      }),
      await call(sim.baseUrl, "POST", "/webhook_subscriptions", {
        headers: { authorization: auth() },
        body: subs(["order_status_change", `https://example.com/${RW_KEY}`], [RW_KEY, "https://x.y/"]),
      }),
      await call(sim.baseUrl, "POST", "/webhook_subscriptions", {
        headers: { authorization: auth() },
        body: subs(["order_status_change", `https://Example.com/${RW_KEY}`]),
      }),
      await call(sim.baseUrl, "DELETE", "/webhook_subscriptions/1", {
        headers: { authorization: auth(RO_KEY) },
      }),
      await call(sim.baseUrl, "GET", `/${RW_KEY}`),
    ];
    expect(replies.map((r) => r.status)).toEqual([
      200, 401, 401, 401, 401, 401, 200, 400, 422, 422, 403, 404,
    ]);
    const log = JSON.stringify(sim.requests());
    expect(log).toContain("[REDACTED]");
    for (const text of [log, ...replies.map((r) => r.text)]) {
      for (const secret of secrets) expect(text).not.toContain(secret);
    }
    expect(sim.requests()[0]?.headers.authorization).toBe("bearer [REDACTED]");
    expect(sim.requests()[2]?.headers.authorization).toBe("[REDACTED]");
    expect(sim.requests()[2]?.authScheme).toBeUndefined();
    expect(sim.requests()[6]?.headers["x-api-key"]).toBe("[REDACTED]");
    expect(sim.requests()[6]?.headers["user-agent"]).toBe("agent [REDACTED]");
  });

  it("records User-Agent and every other header", async () => {
    const sim = await startSim();
    await get(sim, auth(), { "user-agent": "CustomApiCall/2", "X-Custom": "yes" });
    expect(sim.requests()[0]?.headers).toMatchObject({
      "user-agent": "CustomApiCall/2",
      "x-custom": "yes",
      authorization: "bearer [REDACTED]",
      host: expect.stringMatching(/^127\.0\.0\.1:\d+$/),
    });
  });

  it("redactAuthorization keeps only a safe scheme word", () => {
    const ring = new KeyRing([{ name: "s", keys: { readWrite: ["k3y"] } }]);
    expect(redactAuthorization("Bearer abc", ring)).toBe("Bearer [REDACTED]");
    expect(redactAuthorization("k3y abc", ring)).toBe("[REDACTED]");
    expect(redactAuthorization("a".repeat(30), ring)).toBe("[REDACTED]");
    expect(ring.scrub("x k3y y azN5 azN5")).toBe("x [REDACTED] y [REDACTED] [REDACTED]");
  });
});
