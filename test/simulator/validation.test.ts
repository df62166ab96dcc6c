import { describe, expect, it } from "vitest";
import { acceptsJson, isJsonContentType, parseIdList, urlProblem } from "../../simulator/validation";
import { AMBIGUOUS_URLS } from "../support/ambiguousUrls";
import { api, errorOf, expectErrorShape, startSim, subs } from "./helpers";

const HOOK_LIST = '"shipment_status_change", "shipment_label_created", "order_status_change"';

async function post422(body: unknown) {
  const sim = await startSim();
  const reply = await api(sim, "POST", "/webhook_subscriptions", { body });
  expect(reply.status).toBe(422);
  expectErrorShape(reply);
  expect(sim.subscriptions("demo")).toEqual([]);
  expect(sim.state().nextId).toBe(1);
  return errorOf(reply).errors;
}

describe("POST envelope (422, code 10001)", () => {
  it.each([
    [[], "body must be a JSON object"],
    [42, "body must be a JSON object"],
    [null, "body must be a JSON object"],
    [{}, "data must be an object"],
    [{ data: [] }, "data must be an object"],
    [{ data: {} }, "data.webhook_subscriptions must be a non-empty array"],
    [{ data: { webhook_subscriptions: [] } }, "data.webhook_subscriptions must be a non-empty array"],
    [
      { data: { webhook_subscriptions: { hook: "x" } } },
      "data.webhook_subscriptions must be a non-empty array",
    ],
  ])("rejects %j naming the path", async (body, text) => {
    const errors = await post422(body);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ status: 422, code: 10001, title: "Invalid subscription" });
    expect(errors[0]?.message).toContain(text);
  });

  it("rejects non-object items naming their index", async () => {
    const body = {
      data: { webhook_subscriptions: [{ hook: "order_status_change", url: "https://a.b" }, "x", null] },
    };
    const errors = await post422(body);
    expect(errors.map((e) => [e.code, e.message.split(" ")[0]])).toEqual([
      [10001, "data.webhook_subscriptions[1]"],
      [10001, "data.webhook_subscriptions[2]"],
    ]);
  });
});

describe("hook (422, code 10003)", () => {
  it.each([["bogus"], ["Order_Status_Change"], [3], [null]])(
    "rejects hook %j listing the three hooks",
    async (hook) => {
      const errors = await post422({ data: { webhook_subscriptions: [{ hook, url: "https://a.b/" }] } });
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ code: 10003, title: "Invalid hook" });
      expect(errors[0]?.message).toContain("data.webhook_subscriptions[0].hook");
      expect(errors[0]?.message).toContain(HOOK_LIST);
    },
  );

  it("rejects a missing hook", async () => {
    const errors = await post422({ data: { webhook_subscriptions: [{ url: "https://a.b/" }] } });
    expect(errors[0]?.message).toBe(
      `data.webhook_subscriptions[0].hook is missing; it must be one of ${HOOK_LIST}`,
    );
  });
});

describe("url (422, code 10002)", () => {
  it.each([
    ["http://example.com/a", "must use https"],
    ["ftp://example.com/a", "must use https"],
    ["example.com/a", "must be an absolute URL"],
    ["/relative", "must be an absolute URL"],
    ["https://", "must be an absolute URL"],
    [" https://example.com", "without whitespace"],
    ["https://example.com/a b", "without whitespace"],
    ["https://Example.com/a", 'must be lowercase; use "https://example.com/a"'],
    ["https://example.com/A?B=C", 'must be lowercase; use "https://example.com/a?b=c"'],
    ["HTTPS://EXAMPLE.COM", 'must be lowercase; use "https://example.com"'],
  ])("rejects %s (%s)", async (url, rule) => {
    const errors = await post422(subs(["order_status_change", url]));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: 10002, title: "Invalid url" });
    expect(errors[0]?.message).toContain("data.webhook_subscriptions[0].url");
    expect(errors[0]?.message).toContain(rule);
  });

  it.each(AMBIGUOUS_URLS)(
    "rejects %j, which parsers read differently (%s), with the fix %s",
    async (url, reason, fix) => {
      const errors = await post422(subs(["order_status_change", url]));
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ code: 10002, title: "Invalid url" });
      expect(errors[0]?.message).toMatch(reason);
      if (fix !== undefined) expect(errors[0]?.message).toContain(`use "${fix}"`);
    },
  );

  it("stores an accepted url exactly as posted, and the fix it suggests is accepted", async () => {
    const sim = await startSim();
    for (const [, , fix] of AMBIGUOUS_URLS) {
      if (fix === undefined) continue;
      const reply = await api(sim, "POST", "/webhook_subscriptions", {
        body: subs(["order_status_change", fix]),
      });
      expect(reply.status, fix).toBe(200);
      expect(sim.subscriptions("demo").map((s) => s.url)).toEqual([fix]);
    }
  });

  it.each([
    [undefined, "is missing"],
    [42, "must be a string"],
  ])("rejects url %j", async (url, text) => {
    const errors = await post422({ data: { webhook_subscriptions: [{ hook: "order_status_change", url }] } });
    expect(errors[0]?.code).toBe(10002);
    expect(errors[0]?.message).toContain(text);
  });
});

describe("the same hook twice in one request", () => {
  it("is rejected with 10001 naming both indexes, and nothing is applied", async () => {
    const sim = await startSim();
    await api(sim, "POST", "/webhook_subscriptions", {
      body: subs(["order_status_change", "https://old.example/"]),
    });
    const reply = await api(sim, "POST", "/webhook_subscriptions", {
      body: subs(
        ["shipment_label_created", "https://a.example/"],
        ["order_status_change", "https://b.example/"],
        ["order_status_change", "https://c.example/"],
      ),
    });
    expect(reply.status).toBe(422);
    const [error] = errorOf(reply).errors;
    expect(error?.code).toBe(10001);
    expect(error?.message).toContain("data.webhook_subscriptions[1] and data.webhook_subscriptions[2]");
    expect(sim.state()).toEqual({
      nextId: 2,
      shops: { demo: [{ id: 1, hook: "order_status_change", url: "https://old.example/" }] },
    });
  });
});

describe("a POST is validated as a whole", () => {
  it("reports every problem in errors[] and applies nothing when one item of several is bad", async () => {
    const errors = await post422(
      subs(
        ["order_status_change", "https://ok.example/"],
        ["nope", "http://X.example"],
        ["shipment_label_created", "x"],
      ),
    );
    expect(errors.map((e) => e.code)).toEqual([10003, 10002, 10002]);
  });

  it("joins the messages in the top-level message", async () => {
    const sim = await startSim();
    const reply = await api(sim, "POST", "/webhook_subscriptions", { body: subs(["nope", "http://a.b"]) });
    const body = errorOf(reply);
    expect(body.message).toBe(
      `${body.errors[0]?.message}; ${body.errors[1]?.message} (request_id: ${body.request_id})`,
    );
  });
});

describe("helpers", () => {
  it("urlProblem accepts good urls", () => {
    for (const url of [
      "https://example.com",
      "https://a.b/c?d=e",
      "https://127.0.0.1:8443/x",
      "https://[::1]:8443/x",
      "https://x.example:443/a;b=c/%c3%a9?q=1&r=%20",
    ]) {
      expect(urlProblem(url)).toBeUndefined();
    }
  });

  it("an id list is read as positive safe integers, leading zeros ignored, each id once", () => {
    expect(parseIdList("3;1;3")).toEqual([3, 1]);
    expect(parseIdList("007")).toEqual([7]);
    expect(parseIdList(String(Number.MAX_SAFE_INTEGER))).toEqual([Number.MAX_SAFE_INTEGER]);
    expect(() => parseIdList(String(Number.MAX_SAFE_INTEGER + 1))).toThrow(/ids are positive integers/);
  });

  it("answers JSON unless Accept refuses it, and reads only UTF-8 JSON bodies", () => {
    expect(acceptsJson(undefined)).toBe(true);
    expect(acceptsJson("")).toBe(true);
    expect(acceptsJson("*/*;q=0")).toBe(false);
    expect(acceptsJson("application/json;q=0.001")).toBe(true);
    expect(isJsonContentType(undefined)).toBe(false);
    expect(isJsonContentType("application/json; charset=UTF-8")).toBe(true);
    expect(isJsonContentType("application/json; charset=iso-8859-1")).toBe(false);
  });
});
