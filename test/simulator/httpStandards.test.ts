/**
 * HTTP/1.1 as RFC 9110 / 9112 say (issue 14): HEAD, absolute-form targets, Host, Expect, CONNECT, parser
 * refusals with the JSON error body and a log entry, WWW-Authenticate, Accept precedence, Content-Encoding,
 * UTF-8 bodies, aborted and stalled requests, percent-encoded unreserved characters and trailing slashes.
 */
import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { type RawOutcome, type RawReply, rawRequest } from "../../scripts/fuzz/rawClient";
import type { RunningSimulator } from "../../simulator/index";
import { api, auth, b64, call, expectErrorShape, type Reply, startSim, subs, until } from "./helpers";

const ONE = subs(["order_status_change", "https://example.com/a"]);

function replyOf(outcome: RawOutcome): RawReply {
  if ("error" in outcome) throw new Error(`no answer: ${outcome.error}`);
  return outcome.reply;
}

/** A raw answer in the shape the shared helpers check. */
function asReply(raw: RawReply): Reply {
  return { status: raw.status, headers: raw.headers, text: raw.body, json: JSON.parse(raw.body) };
}

function hostOf(sim: RunningSimulator): string {
  return new URL(sim.baseUrl).host;
}

async function seeded(): Promise<{ sim: RunningSimulator; id: number }> {
  const sim = await startSim();
  const created = await api(sim, "POST", "/webhook_subscriptions", { body: ONE });
  const id = (created.json as { data: { ids: Array<{ id: number }> } }).data.ids[0]?.id ?? 0;
  return { sim, id };
}

describe("HEAD on GET routes", () => {
  it("answers HEAD like GET without a body, on /, the list and ids, with the same checks", async () => {
    const { sim, id } = await seeded();
    for (const path of ["/", "/webhook_subscriptions", `/webhook_subscriptions/${id}`]) {
      const get = await api(sim, "GET", path);
      const head = await api(sim, "HEAD", path);
      expect([path, head.status, head.text]).toEqual([path, 200, ""]);
      expect(head.headers["content-length"]).toBe(get.headers["content-length"]);
    }
    expect((await call(sim.baseUrl, "HEAD", "/webhook_subscriptions")).status).toBe(401);
    expect((await api(sim, "HEAD", "/webhook_subscriptions/424242")).status).toBe(404);
    expect(
      sim
        .requests()
        .filter((r) => r.method === "HEAD")
        .map((r) => r.status),
    ).toEqual([200, 200, 200, 401, 404]);
  });
});

describe("request targets", () => {
  it("accepts the absolute form (RFC 9112 3.2.2)", async () => {
    const { sim, id } = await seeded();
    const raw = replyOf(
      await rawRequest(
        sim.baseUrl,
        `GET ${sim.baseUrl}/webhook_subscriptions/${id} HTTP/1.1\r\nHost: ${hostOf(sim)}\r\n` +
          `Authorization: ${auth()}\r\nConnection: close\r\n\r\n`,
      ),
    );
    expect(raw.status).toBe(200);
    expect(JSON.parse(raw.body).data.webhook_subscriptions).toMatchObject([{ id }]);
  });

  it("matches percent-encoded unreserved characters as their decoded form, and nothing else", async () => {
    const { sim, id } = await seeded();
    expect((await api(sim, "GET", "/webhook_%73ubscriptions")).status).toBe(200);
    const digits = [...String(id)].map((d) => `%3${d}`).join("");
    expect((await api(sim, "GET", `/%77ebhook_subscriptions/${digits}`)).status).toBe(200);
    const reserved = await api(sim, "GET", `/webhook_subscriptions/${id}%3B${id}`);
    expect(reserved.status).toBe(400);
    expect(expectErrorShape(reserved).message).toContain(`${id}%3B${id}`);
  });

  it("ignores one trailing slash on every route, the control endpoints included", async () => {
    const { sim, id } = await seeded();
    expect((await api(sim, "GET", `/webhook_subscriptions/${id}/`)).status).toBe(200);
    expect((await call(sim.baseUrl, "GET", "/__sim/state/")).status).toBe(200);
    expect((await api(sim, "DELETE", `/webhook_subscriptions/${id}/`)).status).toBe(204);
    expect(sim.subscriptions("demo")).toEqual([]);
    expect((await api(sim, "GET", "/webhook_subscriptions//")).status).toBe(400);
  });

  it.each(["/webhook_subscriptions/%zz", "*", "/webhook_subscriptions#x", "ftp://h/webhook_subscriptions"])(
    "answers 400 with the JSON error body to the target %s",
    async (target) => {
      const sim = await startSim();
      const raw = replyOf(
        await rawRequest(
          sim.baseUrl,
          `GET ${target} HTTP/1.1\r\nHost: ${hostOf(sim)}\r\nConnection: close\r\n\r\n`,
        ),
      );
      expect(raw.status).toBe(400);
      expect(expectErrorShape(asReply(raw)).message).toContain("request target");
      expect(sim.requests().map((r) => r.status)).toEqual([400]);
    },
  );
});

describe("requests Node's parser or its defaults would answer bare", () => {
  it.each([
    ["no Host", "GET / HTTP/1.1\r\nConnection: close\r\n\r\n", 400, /no Host header/],
    ["two Hosts", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n", 400, /2 Host headers/],
    [
      "Expect: foo",
      "GET / HTTP/1.1\r\nHost: a\r\nExpect: foo\r\nConnection: close\r\n\r\n",
      417,
      /Expect: foo/,
    ],
    ["a lowercase method", "get / HTTP/1.1\r\nHost: a\r\n\r\n", 400, /could not be parsed/],
    ["CONNECT", "CONNECT 127.0.0.1:1 HTTP/1.1\r\nHost: 127.0.0.1:1\r\n\r\n", 405, /CONNECT is not allowed/],
  ])("answers %s with the JSON error body and logs it", async (_, request, status, message) => {
    const sim = await startSim();
    const raw = replyOf(await rawRequest(sim.baseUrl, request));
    expect(raw.status).toBe(status);
    expect(expectErrorShape(asReply(raw)).message).toMatch(message);
    expect(sim.requests().map((r) => r.status)).toEqual([status]);
  });

  it("serves HTTP/1.0 without Host", async () => {
    const sim = await startSim();
    expect(replyOf(await rawRequest(sim.baseUrl, "GET / HTTP/1.0\r\n\r\n")).status).toBe(200);
  });
});

describe("WWW-Authenticate", () => {
  it("is on every 401, naming the accepted schemes", async () => {
    const sim = await startSim();
    const both = 'Bearer realm="Shipping Service API", Basic realm="Shipping Service API"';
    for (const headers of [{}, { authorization: "bearer" }, { authorization: `bearer ${b64("nope")}` }]) {
      const reply = await call(sim.baseUrl, "GET", "/webhook_subscriptions", { headers });
      expect([reply.status, reply.headers["www-authenticate"]]).toEqual([401, both]);
    }
    sim.setSwitches({ authScheme: "basic" });
    const basic = await call(sim.baseUrl, "DELETE", "/webhook_subscriptions/1");
    expect(basic.headers["www-authenticate"]).toBe('Basic realm="Shipping Service API"');
    sim.addFault({ kind: "status", status: 401, count: 1 });
    const faulted = await api(sim, "GET", "/webhook_subscriptions");
    expect([faulted.status, faulted.headers["www-authenticate"]]).toEqual([
      401,
      'Basic realm="Shipping Service API"',
    ]);
    expect(
      (
        await api(sim, "GET", "/webhook_subscriptions", {
          headers: { authorization: auth(undefined, "basic") },
        })
      ).headers["www-authenticate"],
    ).toBeUndefined();
  });
});

describe("Accept: the most specific range wins (RFC 9110 12.5.1)", () => {
  it.each([
    ["application/json;q=0, application/*", 406],
    ["application/*;q=0, */*", 406],
    ["application/json;q=0, */*", 406],
    ["application/json;q=2", 406],
    ["application/*;q=0, application/json", 200],
    ["*/*;q=0, application/json;q=0.5", 200],
    ["text/html, */*;q=0.1", 200],
  ])("Accept: %s is %i", async (accept, status) => {
    const sim = await startSim();
    expect((await api(sim, "GET", "/webhook_subscriptions", { headers: { accept } })).status).toBe(status);
  });
});

describe("request bodies", () => {
  it.each(["gzip", "br", "deflate, gzip", "x-unknown"])(
    "answers 415 with Accept-Encoding: identity to Content-Encoding %s",
    async (encoding) => {
      const sim = await startSim();
      const reply = await api(sim, "POST", "/webhook_subscriptions", {
        headers: { "content-encoding": encoding },
        body: ONE,
      });
      expect([reply.status, reply.headers["accept-encoding"]]).toEqual([415, "identity"]);
      expect(expectErrorShape(reply).message).toContain("Content-Encoding");
      expect(sim.subscriptions("demo")).toEqual([]);
    },
  );

  it("takes Content-Encoding: identity", async () => {
    const sim = await startSim();
    const reply = await api(sim, "POST", "/webhook_subscriptions", {
      headers: { "content-encoding": "identity" },
      body: ONE,
    });
    expect(reply.status).toBe(200);
  });

  it("answers 400 to a body that is not UTF-8 instead of storing U+FFFD", async () => {
    const sim = await startSim();
    const text = JSON.stringify(subs(["order_status_change", "https://example.com/a-X"]));
    const body = Buffer.from(text, "utf8");
    body[body.indexOf("X")] = 0xff;
    const reply = await api(sim, "POST", "/webhook_subscriptions", {
      headers: { "content-type": "application/json" },
      body,
    });
    expect(reply.status).toBe(400);
    expect(expectErrorShape(reply)).toMatchObject({ code: 10000, title: "Malformed body" });
    expect(expectErrorShape(reply).message).toContain("not valid UTF-8");
    expect(sim.subscriptions("demo")).toEqual([]);
  });

  it("logs a request whose client went away mid-body as aborted with no answer, not a 500", async () => {
    const sim = await startSim();
    const url = new URL(sim.baseUrl);
    const socket = connect({ host: url.hostname, port: Number(url.port) });
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.write(
      `POST /webhook_subscriptions HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: ${auth()}\r\n` +
        "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
    );
    await until(() => (sim.requests().length === 1 ? true : undefined), 5_000, "the request to arrive");
    socket.destroy();
    const entry = await until(() => sim.requests().find((r) => r.aborted), 5_000, "the abort to be logged");
    expect(entry).toMatchObject({ method: "POST", status: 0, aborted: true });
  });

  it("answers a stalled body 408 within bodyTimeoutMs and closes the connection", async () => {
    const sim = await startSim({ bodyTimeoutMs: 300 });
    const raw = replyOf(
      await rawRequest(
        sim.baseUrl,
        `POST /webhook_subscriptions HTTP/1.1\r\nHost: ${hostOf(sim)}\r\nAuthorization: ${auth()}\r\n` +
          "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
        { timeoutMs: 5_000 },
      ),
    );
    expect(raw.status).toBe(408);
    expect(raw.closing).toBe(true);
    expect(expectErrorShape(asReply(raw)).message).toContain("within 0.3 s");
    // Answered by the body timeout while the client still waited (it gives up only after 5 s), never aborted.
    expect(sim.requests().map((r) => [r.status, r.aborted ?? false])).toEqual([[408, false]]);
  });
});
