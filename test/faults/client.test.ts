import { describe, expect, it } from "vitest";
import { AuthSchemeMemory } from "../../provider/client/authScheme";
import { ShippingClient, type ShippingClientOptions } from "../../provider/client/shippingClient";
import { ShippingConnectionError, ShippingError, ShippingRequestError } from "../../provider/errors";
import { useAcmeClients, useAcmeSimulator } from "../support/acmeSimulator";
import { rejectionOf } from "../support/rejection";
import { ACME_KEY, ACME_READ_ONLY_KEY, GLOBEX_KEY, leaksOf } from "../support/shops";

/** Fast retries and short timeouts so that fault tests stay quick; the policy itself is the default's. */
const FAST: Partial<ShippingClientOptions> = {
  retry: { maxRetries: 3, baseDelayMs: 10, maxDelayMs: 40, maxRetryAfterMs: 2_000 },
  timeouts: { connectMs: 1_000, headersMs: 300, bodyMs: 300, deadlineMs: 5_000 },
};

const acme = useAcmeSimulator();
const client = useAcmeClients(acme, FAST);

function failure(promise: Promise<unknown>): Promise<ShippingError> {
  return rejectionOf(promise, ShippingError);
}

describe("auth scheme", () => {
  it.each([
    ["bearer", 0, "bearer"],
    ["both", 0, "bearer"],
    ["basic", 1, "basic"],
  ] as const)(
    "auto works when the service takes %s, with %i fallback, and remembers it for the deployment's clients",
    async (accepted, fallbacks, word) => {
      acme.sim.setSwitches({ authScheme: accepted });
      const schemeMemory = new AuthSchemeMemory();
      const api = client({ schemeMemory });
      await api.list();
      await api.list();
      await client({ schemeMemory }).list(); // a second client of the same deployment (another shop's)
      const log = acme.sim.requests();
      expect(log.filter((r) => r.status === 401)).toHaveLength(fallbacks);
      expect(log.filter((r) => r.status === 200).map((r) => r.authScheme)).toEqual([word, word, word]);
    },
  );

  it.each(["bearer", "basic", "both"] as const)(
    "auto: concurrent first requests all succeed when the service takes %s (one learns, the others follow)",
    async (accepted) => {
      acme.sim.setSwitches({ authScheme: accepted });
      const api = client();
      // The first answer arrives while the others are in flight; each late 401 must retry with what was learned.
      const results = await Promise.allSettled(Array.from({ length: 12 }, () => api.list()));
      expect(results.filter((r) => r.status === "rejected")).toEqual([]);
      const accepts = (word: string | undefined) => accepted === "both" || word === accepted;
      expect(
        acme.sim
          .requests()
          .filter((r) => r.status === 200)
          .every((r) => accepts(r.authScheme)),
      ).toBe(true);
    },
  );

  it("auto: a 503 answered before authentication teaches nothing; the next 401 still falls back", async () => {
    acme.sim.setSwitches({ authScheme: "basic" });
    acme.sim.addFault({ kind: "status", status: 503, count: 1 });
    const api = client({ retry: { maxRetries: 0 } });
    expect((await failure(api.list())).message).toMatch(/503/);
    await expect(api.list()).resolves.toBeDefined();
    expect(acme.sim.requests().at(-1)?.authScheme).toBe("basic");
  });

  it("a fixed scheme sends only that word, and a wrong one fails with a hint", async () => {
    acme.sim.setSwitches({ authScheme: "bearer" });
    const error = await failure(client({ authScheme: "basic" }).list());
    expect(error).toBeInstanceOf(ShippingRequestError);
    expect(error.message).toMatch(
      /status code 401 Unauthorized: GET http:\/\/127\.0\.0\.1:\d+\/webhook_subscriptions\//,
    );
    expect(error.message).toMatch(/codes: 3103/);
    expect(error.message).toMatch(/hint: check the API key .* auth scheme/);
    expect(acme.sim.requests().map((r) => r.authScheme)).toEqual(["basic"]);
  });
});

describe("errors", () => {
  it("a wrong key: 401 naming method, URL, status and the API's message, with no trace of the key", async () => {
    const wrongKey = "definitely-wrong-key-123";
    const error = (await failure(client({ apiKey: wrongKey }).list())) as ShippingRequestError;
    expect(error.status).toBe(401);
    expect(error.apiMessage).toBeTruthy();
    expect(error.request.headers.authorization).toMatch(/^(bearer|basic) \[REDACTED\]$/);
    const everything = JSON.stringify({
      message: error.message,
      stack: error.stack,
      request: error.request,
      response: error.response,
    });
    expect(leaksOf(wrongKey, everything)).toEqual([]);
  });

  it("a read-only key: 403 with a permission hint", async () => {
    const error = (await failure(
      client({ apiKey: ACME_READ_ONLY_KEY }).create([
        { hook: "order_status_change", url: "https://a.example" },
      ]),
    )) as ShippingRequestError;
    expect(error.status).toBe(403);
    expect(error.message).toMatch(
      /403 Forbidden: POST .*\/webhook_subscriptions — API says: .* hint: .*read-only key/,
    );
    expect(error.message).toMatch(/hint: .*run pulumi up and destroy with a read-write key/);
    expect(acme.sim.subscriptions("acme")).toEqual([]);
  });

  it("another shop's subscription: 403 whose hint names the shop, not the key's rights", async () => {
    const [globexId] = await client({ apiKey: GLOBEX_KEY }).create([
      { hook: "order_status_change", url: "https://g.example/o" },
    ]);
    const error = (await failure(client().delete([globexId ?? 0]))) as ShippingRequestError;
    expect(error.status).toBe(403);
    expect(error.message).toMatch(/API says: Permission Denied\. \(deleteResourceOwnedByOthers\)/);
    expect(error.message).toMatch(/hint: the subscription belongs to another shop/);
    expect(error.message).not.toMatch(/read-write key/);
  });

  it("invalid data: 422 naming the field and the API's code", async () => {
    const error = (await failure(
      client().create([{ hook: "order_status_change", url: "https://A.example" }]),
    )) as ShippingRequestError;
    expect(error.status).toBe(422);
    expect(error.message).toMatch(/data\.webhook_subscriptions\[0\]\.url/);
    expect(error.message).toMatch(/codes: 10002/);
  });

  it("an unknown id: list of ids answers empty, delete throws 404", async () => {
    expect(await client().list([424242])).toEqual([]);
    const error = (await failure(client().delete([424242]))) as ShippingRequestError;
    expect(error.status).toBe(404);
    expect(error.message).toMatch(/DELETE .*\/webhook_subscriptions\/424242/);
  });

  it("refuses plain HTTP to anything but loopback", () => {
    expect(() => new ShippingClient({ baseUrl: "http://api.example.com", apiKey: ACME_KEY })).toThrow(
      /must use HTTPS/,
    );
    expect(() => new ShippingClient({ baseUrl: "http://localhost:1", apiKey: ACME_KEY })).not.toThrow();
  });
});

describe("retries under simulator faults", () => {
  const post = (api = client()) => api.create([{ hook: "order_status_change", url: "https://a.example/o" }]);

  it.each([503, 429])(
    "retries a burst of %i to a POST (the service did not process it) and succeeds",
    async (status) => {
      acme.sim.addFault({ kind: "status", status, count: 2, method: "POST" });
      const [id] = await post();
      expect(acme.sim.requests().map((r) => r.status)).toEqual([status, status, 200]);
      expect(acme.sim.subscriptions("acme")).toEqual([
        { id, hook: "order_status_change", url: "https://a.example/o" },
      ]);
    },
  );

  it.each([502, 504])("retries a burst of %i to a GET and succeeds", async (status) => {
    acme.sim.addFault({ kind: "status", status, count: 2, method: "GET" });
    expect(await client().list()).toEqual([]);
    expect(acme.sim.requests().map((r) => r.status)).toEqual([status, status, 200]);
  });

  it.each([502, 504])(
    "does not send a POST again after a gateway's %i: the service may still apply it",
    async (status) => {
      acme.sim.addFault({ kind: "status", status, count: 2, method: "POST" });
      const error = (await failure(post())) as ShippingRequestError;
      expect(error.status).toBe(status);
      expect(error.message).toMatch(
        new RegExp(
          `^Request failed with status code ${status} [^:]+: POST http://127\\.0\\.0\\.1:\\d+/webhook_subscriptions — API says: simulated fault`,
        ),
      );
      expect(acme.sim.requests()).toHaveLength(1);
    },
  );

  it("does not retry a 500 (a fault of the service) and reports it", async () => {
    acme.sim.addFault({ kind: "status", status: 500, count: 1 });
    const error = (await failure(client().list())) as ShippingRequestError;
    expect(error.status).toBe(500);
    expect(acme.sim.requests()).toHaveLength(1);
  });

  it("waits what Retry-After says on 429", async () => {
    acme.sim.addFault({ kind: "status", status: 429, count: 1, retryAfterSeconds: 1 });
    const started = Date.now();
    await client().list();
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(acme.sim.requests().map((r) => r.status)).toEqual([429, 200]);
  });

  it("gives up on a Retry-After beyond its cap at once, with the rate-limit hint", async () => {
    acme.sim.addFault({ kind: "status", status: 429, count: 1, retryAfterSeconds: 300 });
    const error = await failure(client().list());
    expect(error.message).toMatch(/429 Too Many Requests.*hint: rate limited/);
    expect(acme.sim.requests()).toHaveLength(1);
  });

  it("does not send a POST again after a connection reset (it may have been sent); nothing written", async () => {
    acme.sim.addFault({ kind: "reset", count: 1, method: "POST" });
    const error = (await failure(post())) as ShippingConnectionError;
    expect(error.code).toBe("ECONNRESET");
    expect(acme.sim.requests()).toHaveLength(1);
    expect(acme.sim.subscriptions("acme")).toEqual([]);
  });

  it("does not send again a POST whose write landed before the connection dropped: written once", async () => {
    acme.sim.addFault({ kind: "drop-after-write", count: 1, method: "POST" });
    expect(await failure(post())).toBeInstanceOf(ShippingConnectionError);
    expect(acme.sim.requests()).toHaveLength(1);
    expect(acme.sim.subscriptions("acme")).toMatchObject([
      { hook: "order_status_change", url: "https://a.example/o" },
    ]);
  });

  it("does not send again a POST that timed out and that the service applies late: one write, after the client gave up", async () => {
    // Applied once the client closed the connection (undici's timers are coarse: no race with a fixed delay).
    acme.sim.addFault({ kind: "late-apply", ms: 0, untilClientGone: true, count: 1, method: "POST" });
    const error = (await failure(post())) as ShippingConnectionError;
    expect(error.code).toBe("UND_ERR_HEADERS_TIMEOUT");
    const deadline = Date.now() + 5_000;
    while (acme.sim.subscriptions("acme").length === 0 && Date.now() < deadline)
      await new Promise((resolve) => setImmediate(resolve));
    expect(acme.sim.subscriptions("acme")).toMatchObject([
      { hook: "order_status_change", url: "https://a.example/o" },
    ]);
    expect(acme.sim.requests()).toMatchObject([
      { method: "POST", status: 0, fault: "late-apply", appliedStatus: 200 },
    ]);
  });

  it("retries a stalled request after the headers timeout", async () => {
    acme.sim.addFault({ kind: "stall", count: 1, method: "GET" });
    expect(await client().list()).toEqual([]);
    expect(acme.sim.requests().map((r) => r.status)).toEqual([0, 200]);
  });

  it("fails within the deadline when the service never answers, naming the request", async () => {
    acme.sim.addFault({ kind: "stall", method: "GET" });
    const error = (await failure(
      client({
        timeouts: { headersMs: 200, deadlineMs: 1_500 },
        retry: { maxRetries: 50, baseDelayMs: 10, maxDelayMs: 20 },
      }).list(),
    )) as ShippingConnectionError;
    expect(error).toBeInstanceOf(ShippingConnectionError);
    // Each attempt waits at least its 200 ms headers timeout, so the 1.5 s deadline allows at most 8 of the 51
    // attempts the retry budget would (a slow machine makes fewer, never more).
    expect(acme.sim.requests().length).toBeGreaterThanOrEqual(1);
    expect(acme.sim.requests().length).toBeLessThanOrEqual(8);
    expect(error.message).toMatch(
      /Request failed: GET http:\/\/127\.0\.0\.1:\d+\/webhook_subscriptions\/ — /,
    );
    expect(error.cause).toBeDefined();
  });

  it("reports an exhausted retry budget with the last status and the API's message", async () => {
    acme.sim.addFault({ kind: "status", status: 503, method: "GET" });
    const error = (await failure(client().list())) as ShippingRequestError;
    expect(error.status).toBe(503);
    expect(acme.sim.requests()).toHaveLength(4); // first attempt + 3 retries
  });
});
