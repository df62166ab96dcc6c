/**
 * The hostile client of issue 29 on loopback: cross-site control calls (defect 1), transfer codings the
 * simulator cannot decode (2), invalid Host values (5), a repeated Authorization (6) and HEAD on the control
 * GET endpoints (7).
 */
import { describe, expect, it } from "vitest";
import { type RawOutcome, type RawReply, rawRequest } from "../../scripts/fuzz/rawClient";
import type { RunningSimulator } from "../../simulator/index";
import { api, auth, call, expectErrorShape, type Reply, startSim, subs } from "./helpers";

const A = "https://example.com/a";
const ONE = subs(["order_status_change", A]);
const ONE_TEXT = JSON.stringify(ONE);

function replyOf(outcome: RawOutcome): RawReply {
  if ("error" in outcome) throw new Error(`no answer: ${outcome.error}`);
  return outcome.reply;
}

function asReply(raw: RawReply): Reply {
  return { status: raw.status, headers: raw.headers, text: raw.body, json: JSON.parse(raw.body) };
}

const hostOf = (sim: RunningSimulator): string => new URL(sim.baseUrl).host;
const portOf = (sim: RunningSimulator): string => new URL(sim.baseUrl).port;

async function seeded(): Promise<RunningSimulator> {
  const sim = await startSim();
  expect((await api(sim, "POST", "/webhook_subscriptions", { body: ONE })).status).toBe(200);
  return sim;
}

describe("defect 1: a web page cannot drive the control endpoints", () => {
  it.each([
    ["a cross-site Origin", { origin: "https://evil.example" }],
    ["Origin: null", { origin: "null" }],
    ["another loopback origin", { origin: "http://localhost:3000" }],
    ["Sec-Fetch-Site: cross-site", { "sec-fetch-site": "cross-site" }],
    ["Sec-Fetch-Site: same-site", { "sec-fetch-site": "same-site" }],
  ])("refuses POST /__sim/reset with %s: 403, nothing reset", async (_, headers) => {
    const sim = await seeded();
    const reply = await call(sim.baseUrl, "POST", "/__sim/reset", { headers });
    expect(reply.status).toBe(403);
    expect(expectErrorShape(reply).message).toMatch(/cross-site/);
    expect(sim.subscriptions("demo")).toHaveLength(1);
  });

  it("refuses a control body that is not declared JSON (a form or text/plain needs no preflight): 415", async () => {
    const sim = await startSim();
    for (const type of [
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
    ]) {
      const fault = await call(sim.baseUrl, "POST", "/__sim/faults", {
        headers: { "content-type": type },
        body: JSON.stringify({ kind: "status", status: 500 }),
      });
      expect([type, fault.status]).toEqual([type, 415]);
      expect(expectErrorShape(fault).message).toMatch(/Content-Type: application\/json/);
    }
    const noType = await call(sim.baseUrl, "PATCH", "/__sim/switches", { body: '{"getStatus":201}' });
    expect(noType.status).toBe(415);
    expect((await call(sim.baseUrl, "GET", "/__sim/faults")).json).toEqual([]);
    expect(sim.switches().getStatus).toBe(200);
  });

  it("refuses a Host that is not loopback (DNS rebinding): 403 on reads too", async () => {
    const sim = await seeded();
    for (const path of ["/__sim/state", "/__sim/requests", "/__sim/deliveries"]) {
      const reply = await call(sim.baseUrl, "GET", path, {
        headers: { host: `rebind.evil.example:${portOf(sim)}` },
      });
      expect([path, reply.status]).toEqual([path, 403]);
      expect(expectErrorShape(reply).message).toMatch(/Host/);
    }
  });

  it("takes same-origin calls, curl's (no Origin) and JSON bodies from any loopback Host", async () => {
    const sim = await seeded();
    const same = { origin: `http://${hostOf(sim)}`, "sec-fetch-site": "same-origin" };
    expect((await call(sim.baseUrl, "GET", "/__sim/state", { headers: same })).status).toBe(200);
    const localhost = { host: `localhost:${portOf(sim)}` };
    expect((await call(sim.baseUrl, "GET", "/__sim/state", { headers: localhost })).status).toBe(200);
    const patched = await call(sim.baseUrl, "PATCH", "/__sim/switches", {
      headers: { ...same, "sec-fetch-site": "none" },
      body: { getStatus: 201 },
    });
    expect(patched.status).toBe(200);
    expect((await call(sim.baseUrl, "POST", "/__sim/reset")).status).toBe(204);
    expect(sim.subscriptions("demo")).toEqual([]);
  });

  it("leaves the API alone: an API call with a foreign Origin is answered as usual", async () => {
    const sim = await startSim();
    const reply = await api(sim, "GET", "/webhook_subscriptions", {
      headers: { origin: "https://evil.example" },
    });
    expect(reply.status).toBe(200);
  });
});

/** A chunked POST of ONE with the given Transfer-Encoding. */
function chunkedPost(sim: RunningSimulator, transferEncoding: string): string {
  return (
    `POST /webhook_subscriptions HTTP/1.1\r\nHost: ${hostOf(sim)}\r\nAuthorization: ${auth()}\r\n` +
    `Content-Type: application/json\r\nTransfer-Encoding: ${transferEncoding}\r\nConnection: close\r\n\r\n` +
    `${Buffer.byteLength(ONE_TEXT).toString(16)}\r\n${ONE_TEXT}\r\n0\r\n\r\n`
  );
}

describe("defect 2: transfer codings other than chunked (RFC 9112 6.1)", () => {
  it.each(["gzip, chunked", "x-unknown, chunked", "deflate,chunked", "identity, chunked"])(
    "answers Transfer-Encoding: %s with 501 and applies nothing",
    async (codings) => {
      const sim = await startSim();
      const raw = replyOf(await rawRequest(sim.baseUrl, chunkedPost(sim, codings)));
      expect(raw.status).toBe(501);
      expect(expectErrorShape(asReply(raw)).message).toMatch(/Transfer-Encoding/);
      expect(raw.closing).toBe(true);
      expect(sim.subscriptions("demo")).toEqual([]);
      expect(sim.requests().map((r) => r.status)).toEqual([501]);
    },
  );

  it("still takes plain chunked", async () => {
    const sim = await startSim();
    expect(replyOf(await rawRequest(sim.baseUrl, chunkedPost(sim, "chunked"))).status).toBe(200);
    expect(sim.subscriptions("demo")).toHaveLength(1);
  });
});

describe("defect 5: a Host with an invalid value (RFC 9112 3.2) is a 400", () => {
  it.each([
    ["a b/c@d:99999999", 400],
    ["a b", 400],
    ["user@127.0.0.1", 400],
    ["127.0.0.1:99999999", 400],
    ["127.0.0.1:65536", 400],
    ["127.0.0.1:4x", 400],
    ["[::1", 400],
    ["[not-ipv6]:1", 400],
    ["host/path", 400],
    ["%zz.example", 400],
    ["127.0.0.1:4010", 200],
    ["localhost", 200],
    ["[::1]:80", 200],
    // Valid, but not loopback: refused as DNS rebinding (hostPolicy.test.ts), not as a bad value.
    ["shop.example:8080", 403],
    ["xn--bcher-kva.example", 403],
  ])("Host: %s -> %i", async (host, status) => {
    const sim = await startSim();
    const raw = replyOf(
      await rawRequest(sim.baseUrl, `GET / HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`),
    );
    expect(raw.status).toBe(status);
    if (status === 400) expect(expectErrorShape(asReply(raw)).message).toMatch(/Host/);
  });
});

describe("defect 6: Authorization sent twice", () => {
  it.each([
    ["two different keys", [auth(), auth("sim_demo_ro")]],
    ["a valid and an invalid one", [auth(), "bearer bm9wZQ=="]],
    ["the same line twice", [auth(), auth()]],
  ])("refuses %s with 401, naming the header, and changes nothing", async (_, lines) => {
    const sim = await startSim();
    const head = lines.map((line) => `Authorization: ${line}\r\n`).join("");
    const raw = replyOf(
      await rawRequest(
        sim.baseUrl,
        `POST /webhook_subscriptions HTTP/1.1\r\nHost: ${hostOf(sim)}\r\n${head}Content-Type: application/json\r\n` +
          `Content-Length: ${Buffer.byteLength(ONE_TEXT)}\r\nConnection: close\r\n\r\n${ONE_TEXT}`,
      ),
    );
    expect(raw.status).toBe(401);
    expect(expectErrorShape(asReply(raw))).toMatchObject({ code: 3103 });
    expect(expectErrorShape(asReply(raw)).message).toMatch(/Authorization header is sent 2 times/);
    expect(raw.body).not.toContain(auth().split(" ")[1]);
    expect(sim.subscriptions("demo")).toEqual([]);
  });
});

describe("defect 7: HEAD on the control GET endpoints", () => {
  it.each(["state", "requests", "switches", "faults", "deliveries"])(
    "HEAD /__sim/%s answers like GET, without a body",
    async (name) => {
      const sim = await seeded();
      const head = await call(sim.baseUrl, "HEAD", `/__sim/${name}`);
      expect([name, head.status, head.text]).toEqual([name, 200, ""]);
      expect(head.headers["content-type"]).toBe("application/json; charset=utf-8");
    },
  );

  it("lists HEAD in Allow wherever GET is", async () => {
    const sim = await startSim();
    const reply = await call(sim.baseUrl, "PUT", "/__sim/faults");
    expect(reply.status).toBe(405);
    expect(reply.headers.allow).toBe("GET, HEAD, POST, DELETE");
  });
});
