/**
 * Issue 10, bad input: at least 10,000 malformed requests (generated with fast-check, plus the issue's
 * named id lists) against the simulator over loopback, through an undici keep-alive pool with bounded
 * concurrency. Every one must get a 4xx with the JSON error shape, none a 5xx or no answer, and the state
 * must not change: every write in the flood is invalid by construction.
 */
import fc from "fast-check";
import { Pool, request as undiciRequest } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../../simulator";
import { checkAnswer, type Reply, type Violation } from "./support/answers";
import { paddedBody } from "./support/badParts";
import {
  COLLECTION,
  type Fixture,
  type MalformedRequest,
  malformedRequest,
  namedRequests,
} from "./support/malformed";

const SAMPLED = 10_000;
const CONCURRENCY = 16;
const KEY = "flood-rw-key-1";
const READ_ONLY_KEY = "flood-ro-key-1";
const OTHER_KEY = "flood-other-key-2";
const SHOPS = [
  { name: "acme", keys: { readWrite: [KEY], readOnly: [READ_ONLY_KEY] } },
  { name: "globex", keys: { readWrite: [OTHER_KEY] } },
];

let sim: RunningSimulator;
/** Opened right before the flood, so no pooled connection sits idle into the server's keep-alive timeout. */
let pool: Pool | undefined;

beforeAll(async () => {
  // Under partialIds "404" a DELETE naming an unknown id deletes nothing, so every such request must change nothing.
  sim = await startSimulator({ shops: SHOPS, requestLogLimit: 20_000, switches: { partialIds: "404" } });
});
afterAll(async () => {
  await pool?.close();
  await sim.close();
});

async function send(pool: Pool, request: MalformedRequest): Promise<Reply> {
  try {
    const response = await pool.request({
      method: request.method,
      path: request.path,
      headers: request.headers,
      ...(request.hugeBody !== undefined ? { body: paddedBody(request.hugeBody) } : {}),
      ...(request.body !== undefined && request.hugeBody === undefined ? { body: request.body } : {}),
      headersTimeout: 30_000,
      bodyTimeout: 30_000,
    });
    const text = await response.body.text();
    return { status: response.statusCode, headers: response.headers, text };
  } catch (error) {
    const failure = error as { code?: string; message?: string };
    return { error: `${failure.code ?? ""} ${failure.message ?? String(error)}` };
  }
}

async function seed(key: string, hooks: string[]): Promise<number[]> {
  const body = JSON.stringify({
    data: { webhook_subscriptions: hooks.map((hook) => ({ hook, url: `https://seed.example/${hook}` })) },
  });
  const response = await undiciRequest(`${sim.baseUrl}${COLLECTION}`, {
    method: "POST",
    headers: {
      authorization: `bearer ${Buffer.from(key).toString("base64")}`,
      "content-type": "application/json",
    },
    body,
  });
  const json = (await response.body.json()) as { data: { ids: Array<{ id: number }> } };
  return json.data.ids.map(({ id }) => id);
}

/** Sends every request with at most CONCURRENCY in flight; answers the violations. */
async function flood(
  pool: Pool,
  requests: readonly MalformedRequest[],
  statuses: Set<number>,
): Promise<Violation[]> {
  const violations: Violation[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < requests.length; i = next++) {
      const request = requests[i] as MalformedRequest;
      const reply = await send(pool, request);
      if ("status" in reply) statuses.add(reply.status);
      const problem = checkAnswer(request, reply);
      if (problem !== undefined) violations.push(problem);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return violations;
}

describe("a flood of malformed requests", () => {
  it("gets 10,000+ answers that are all 4xx with the JSON error shape, and changes nothing", async () => {
    const fixture: Fixture = {
      key: KEY,
      readOnlyKey: READ_ONLY_KEY,
      ownIds: await seed(KEY, ["order_status_change", "shipment_status_change"]),
      otherIds: await seed(OTHER_KEY, ["order_status_change"]),
    };
    const seedValue = Date.now() ^ (Math.random() * 0x7fffffff);
    const requests = [
      ...namedRequests(fixture),
      ...fc.sample(malformedRequest(fixture), { numRuns: SAMPLED, seed: seedValue }),
    ];
    sim.clearRequests();
    const before = sim.state();
    pool = new Pool(sim.baseUrl, { connections: CONCURRENCY, pipelining: 1 });
    const started = Date.now();
    const statuses = new Set<number>();
    const violations = await flood(pool, requests, statuses);
    const elapsedMs = Date.now() - started;

    const kinds = new Map<string, number>();
    for (const r of requests) kinds.set(r.kind, (kinds.get(r.kind) ?? 0) + 1);
    const context = `seed ${seedValue}, ${requests.length} requests in ${elapsedMs} ms`;
    expect(violations.slice(0, 10), context).toEqual([]);
    expect(sim.state(), context).toEqual(before);
    expect(requests.length).toBeGreaterThanOrEqual(SAMPLED);
    for (const kind of [
      "broken JSON",
      "wrong types",
      "huge body",
      "bad ids",
      "bad credentials",
      "wrong method",
    ]) {
      expect(kinds.get(kind) ?? 0, `${kind} in ${context}`).toBeGreaterThan(50);
    }
    // Every check of the API was reached: each status of its order of checks came back.
    expect([...statuses].sort()).toEqual([400, 401, 403, 404, 405, 406, 413, 415, 422, 431]);
    expect(sim.requests().filter((r) => r.status >= 500)).toEqual([]);
    // Still alive and serving.
    const alive = await pool.request({ method: "GET", path: "/" });
    expect(alive.statusCode).toBe(200);
    await alive.body.text();
  }, 300_000);
});
