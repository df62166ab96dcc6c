import { describe, expect, it } from "vitest";
import { DEFAULT_BODY_LIMIT_BYTES } from "../../simulator/constants";
import { api, auth, call, expectErrorShape, RO_KEY, startSim, subs } from "./helpers";

const ONE = subs(["order_status_change", "https://example.com/a"]);

describe("unknown paths and methods", () => {
  it.each(["/nope", "/webhook_subscriptions/1/2", "/webhook_subscription", "/__simx"])(
    "answers 404 JSON for %s, even without credentials",
    async (path) => {
      const sim = await startSim();
      const reply = await call(sim.baseUrl, "GET", path);
      expect(reply.status).toBe(404);
      expect(expectErrorShape(reply)).toMatchObject({ code: 0, title: "Not found" });
      expect(sim.requests()).toMatchObject([{ path, status: 404 }]);
    },
  );

  it.each([
    ["PUT", "/", "GET, HEAD"],
    ["POST", "/", "GET, HEAD"],
    ["DELETE", "/webhook_subscriptions/", "GET, HEAD, POST"],
    ["PATCH", "/webhook_subscriptions", "GET, HEAD, POST"],
    ["POST", "/webhook_subscriptions/1", "GET, HEAD, DELETE"],
    ["PUT", "/webhook_subscriptions/1;2", "GET, HEAD, DELETE"],
  ])("answers 405 to %s %s with Allow: %s", async (method, path, allow) => {
    const sim = await startSim();
    const reply = await api(sim, method, path, { body: "{}" });
    expect(reply.status).toBe(405);
    expect(reply.headers.allow).toBe(allow);
    expect(expectErrorShape(reply).title).toBe("Method not allowed");
  });
});

describe("406 Not Acceptable", () => {
  it.each(["text/html", "application/xml, text/plain", "application/json;q=0"])(
    "answers 406 to Accept: %s",
    async (accept) => {
      const sim = await startSim();
      for (const path of ["/", "/webhook_subscriptions"]) {
        const reply = await api(sim, "GET", path, { headers: { accept } });
        expect(reply.status).toBe(406);
        expect(reply.headers["content-type"]).toBe("application/json; charset=utf-8");
        expectErrorShape(reply);
      }
    },
  );

  it.each([
    "application/json",
    "application/*",
    "*/*",
    "text/html, application/json;q=0.5",
    "application/json; charset=utf-8",
  ])("accepts Accept: %s", async (accept) => {
    const sim = await startSim();
    expect((await api(sim, "GET", "/webhook_subscriptions", { headers: { accept } })).status).toBe(200);
  });
});

describe("POST body handling", () => {
  it.each([
    "text/plain",
    "application/x-www-form-urlencoded",
    "application/json; charset=latin1",
    "application/jsonx",
  ])("answers 415 to Content-Type %s", async (contentType) => {
    const sim = await startSim();
    const reply = await api(sim, "POST", "/webhook_subscriptions", {
      headers: { "content-type": contentType },
      body: JSON.stringify(ONE),
    });
    expect(reply.status).toBe(415);
    expect(expectErrorShape(reply).title).toBe("Unsupported media type");
    expect(sim.subscriptions("demo")).toEqual([]);
  });

  it("answers 415 when Content-Type is missing", async () => {
    const sim = await startSim();
    const reply = await api(sim, "POST", "/webhook_subscriptions", { body: JSON.stringify(ONE) });
    expect(reply.status).toBe(415);
  });

  it.each(["application/json", "Application/JSON; Charset=UTF-8", "application/json;charset=utf8"])(
    "accepts Content-Type %s",
    async (contentType) => {
      const sim = await startSim();
      const reply = await api(sim, "POST", "/webhook_subscriptions", {
        headers: { "content-type": contentType },
        body: JSON.stringify(ONE),
      });
      expect(reply.status).toBe(200);
    },
  );

  it("answers 400 to malformed JSON and records no body", async () => {
    const sim = await startSim();
    const reply = await api(sim, "POST", "/webhook_subscriptions", {
      headers: { "content-type": "application/json" },
      body: '{"data": ',
    });
    expect(reply.status).toBe(400);
    expect(expectErrorShape(reply)).toMatchObject({ code: 10000, title: "Malformed JSON" });
    expect(sim.requests()[0]?.body).toBeUndefined();
  });

  it("answers 413 to a body over 1 MiB and keeps serving", async () => {
    const sim = await startSim();
    const big = JSON.stringify({
      data: { webhook_subscriptions: [], pad: "x".repeat(DEFAULT_BODY_LIMIT_BYTES) },
    });
    const reply = await api(sim, "POST", "/webhook_subscriptions", {
      body: big,
      headers: { "content-type": "application/json" },
    });
    expect(reply.status).toBe(413);
    expect(expectErrorShape(reply).title).toBe("Payload too large");
    expect((await api(sim, "POST", "/webhook_subscriptions", { body: ONE })).status).toBe(200);
  });

  it("accepts a body of exactly 1 MiB (then validates it)", async () => {
    const sim = await startSim();
    const base = JSON.stringify({ data: { webhook_subscriptions: [], pad: "" } });
    const body = JSON.stringify({
      data: { webhook_subscriptions: [], pad: "x".repeat(DEFAULT_BODY_LIMIT_BYTES - base.length) },
    });
    expect(Buffer.byteLength(body)).toBe(DEFAULT_BODY_LIMIT_BYTES);
    const reply = await api(sim, "POST", "/webhook_subscriptions", {
      body,
      headers: { "content-type": "application/json" },
    });
    expect(reply.status).toBe(422);
  });
});

describe("order of checks", () => {
  it("checks credentials before the body: 401 beats 415, 413, 400 and 422", async () => {
    const sim = await startSim();
    const bodies = [
      { headers: { "content-type": "text/plain" }, body: "x" },
      { headers: { "content-type": "application/json" }, body: "{bad" },
      { body: { data: {} } },
    ];
    for (const options of bodies) {
      const reply = await call(sim.baseUrl, "POST", "/webhook_subscriptions", options);
      expect(reply.status).toBe(401);
    }
    expect(sim.requests().every((r) => r.body === undefined)).toBe(true);
  });

  it("a read-only key gets 403 on POST and DELETE before any body check, and can GET", async () => {
    const sim = await startSim();
    const ro = { authorization: auth(RO_KEY) };
    const post = await call(sim.baseUrl, "POST", "/webhook_subscriptions", { headers: ro, body: "{bad" });
    expect(post.status).toBe(403);
    expect(expectErrorShape(post)).toMatchObject({ code: 3104, title: "Permission denied" });
    expect((await call(sim.baseUrl, "DELETE", "/webhook_subscriptions/1", { headers: ro })).status).toBe(403);
    expect((await call(sim.baseUrl, "GET", "/webhook_subscriptions", { headers: ro })).status).toBe(200);
    expect(sim.requests().map((r) => [r.keyRole, r.status])).toEqual([
      ["read-only", 403],
      ["read-only", 403],
      ["read-only", 200],
    ]);
  });

  it("checks Accept after credentials: 401 beats 406", async () => {
    const sim = await startSim();
    const reply = await call(sim.baseUrl, "GET", "/webhook_subscriptions", {
      headers: { accept: "text/html" },
    });
    expect(reply.status).toBe(401);
  });
});
