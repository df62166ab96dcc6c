/**
 * The soak's traffic, one loop per virtual client: writers (each owns one shop/hook and keeps a model of
 * it), readers, hostile clients and bursts of control calls. Every answer is counted; a 5xx or an answer a
 * scenario does not expect is "unexpected".
 */
import { Agent } from "node:http";
import { HOOKS } from "../../contract/hooks";
import { type Call, type Reply, send } from "./http";
import { authFor, WRITER_SHOPS, writerKey } from "./shops";
import type { Stats } from "./stats";

/** Largest body the API accepts, in bytes (simulator/constants.ts). */
export const BODY_LIMIT_BYTES = 1024 * 1024;
/** At most this many near-limit bodies in flight at once (each holds a few MiB while parsed). */
const BIG_BODIES_IN_FLIGHT = 3;
/** Interval between bursts of control calls, in milliseconds. */
export const CONTROL_BURST_EVERY_MS = 5_000;
/** Control calls per burst. */
const CONTROL_BURST_SIZE = 10;

/** What every loop shares. */
export interface Context {
  baseUrl: string;
  stats: Stats;
  deadline: number;
  random: () => number;
}

/** Wait `ms` (the traffic paces itself; nothing waits for a condition). */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
/** Headers of a JSON request. */
export const JSON_TYPE = {
  "content-type": "application/json; charset=utf-8",
  "user-agent": "CustomApiCall/2",
};

let bigInFlight = 0;

/** Send a call, count its answer; `expect` decides whether the status is expected. */
export async function run(
  ctx: Context,
  agent: Agent | false,
  what: string,
  call: Call,
  expect: (status: number) => boolean,
  timed = true,
): Promise<Reply | undefined> {
  let reply: Reply | undefined;
  try {
    reply = await send(agent, ctx.baseUrl, call);
  } catch (error) {
    ctx.stats.record(-1, undefined, false, `${what}: ${(error as Error).message}`);
    return undefined;
  }
  if (reply === undefined) ctx.stats.record(0, undefined, true, what);
  else
    ctx.stats.record(
      reply.status,
      timed ? reply.ms : undefined,
      reply.status < 500 && expect(reply.status),
      what,
    );
  return reply;
}

/** A create request for one hook, with an extra field given as JSON text. */
export function subscriptionBody(hook: string, url: string, extraJson?: string): string {
  const extra = extraJson === undefined ? "" : `,"extra":${extraJson}`;
  return `{"data":{"webhook_subscriptions":[{"hook":"${hook}","url":"${url}"${extra}}]}}`;
}

/** A writer's slot and its model: what the shop holds for the hook, after the answered writes. */
interface Slot {
  shop: string;
  hook: string;
  key: string;
  model: { id: number; url: string } | undefined;
}

/** All writer slots: every hook of every writer shop. */
export function writerSlots(): Slot[] {
  return Array.from({ length: WRITER_SHOPS }, (_, shop) =>
    HOOKS.map((hook) => ({ shop: `soak${shop}`, hook, key: writerKey(shop), model: undefined })),
  ).flat();
}

/** Loop: POST (plain, near the size limit, deeply nested, trickled slowly), DELETE and GET of one slot. */
export async function writer(ctx: Context, slot: Slot, index: number): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const headers = { ...JSON_TYPE, authorization: authFor(slot.key) };
  for (let n = 0; Date.now() < ctx.deadline; n++) {
    const pick = ctx.random();
    const url = `https://w${index}.example/${n}`;
    if (pick < 0.15 && slot.model !== undefined) {
      const id = slot.model.id;
      const reply = await run(
        ctx,
        agent,
        "DELETE own",
        { method: "DELETE", path: `/webhook_subscriptions/${id}`, headers },
        (s) => s === 204,
      );
      if (reply?.status === 204) slot.model = undefined;
    } else if (pick < 0.2 && slot.model !== undefined) {
      await run(
        ctx,
        agent,
        "GET own",
        { method: "GET", path: `/webhook_subscriptions/${slot.model.id}`, headers },
        (s) => s === 200,
      );
    } else {
      let body = subscriptionBody(slot.hook, url);
      let call: Call = { method: "POST", path: "/webhook_subscriptions", headers, body };
      let timed = true;
      let big = false;
      if (pick < 0.3 && bigInFlight < BIG_BODIES_IN_FLIGHT) {
        big = true;
        bigInFlight += 1;
        body = subscriptionBody(
          slot.hook,
          url,
          JSON.stringify("x".repeat(BODY_LIMIT_BYTES - body.length - 20)),
        );
        call = { ...call, body };
      } else if (pick < 0.4) {
        // Mostly 5,000-20,000 levels; one in ten 100,000 (V8 parses deep arrays slowly: ~0.4 s at 100,000).
        const depth = ctx.random() < 0.1 ? 100_000 : 5_000 + Math.floor(ctx.random() * 15_000);
        call = {
          ...call,
          body: subscriptionBody(slot.hook, url, `${"[".repeat(depth)}${"]".repeat(depth)}`),
        };
      } else if (pick < 0.45) {
        call = { ...call, pieces: 8, pauseMs: 100 + Math.floor(ctx.random() * 150) };
        timed = false;
      }
      const reply = await run(ctx, agent, "POST own", call, (s) => s === 200, timed).finally(() => {
        if (big) bigInFlight -= 1;
      });
      if (reply?.status === 200) {
        const id = (JSON.parse(reply.body) as { data: { ids: Array<{ id: number }> } }).data.ids[0]?.id;
        if (id !== undefined) slot.model = { id, url };
      }
    }
    await sleep(Math.floor(ctx.random() * 20));
  }
  agent.destroy();
}

/** Loop: list, get by ids (some unknown), the root. */
export async function reader(ctx: Context, shop: number): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const headers = { "user-agent": "CustomApiCall/2", authorization: authFor(writerKey(shop)) };
  while (Date.now() < ctx.deadline) {
    const pick = ctx.random();
    if (pick < 0.4)
      await run(
        ctx,
        agent,
        "GET list",
        { method: "GET", path: "/webhook_subscriptions", headers },
        (s) => s === 200,
      );
    else if (pick < 0.9) {
      const ids = Array.from(
        { length: 1 + Math.floor(ctx.random() * 5) },
        () => 1 + Math.floor(ctx.random() * 5_000),
      );
      await run(
        ctx,
        agent,
        "GET ids",
        { method: "GET", path: `/webhook_subscriptions/${ids.join(";")}`, headers },
        (s) => s === 200 || s === 404,
      );
    } else await run(ctx, agent, "GET /", { method: "GET", path: "/" }, (s) => s === 200);
    await sleep(Math.floor(ctx.random() * 5));
  }
  agent.destroy();
}

const nested = (depth: number): string => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

/** A listing is answered, or refused with 429 while 8 others stream. */
const listed = (s: number): boolean => s === 200 || s === 429;

/** Every CONTROL_BURST_EVERY_MS: concurrent control reads, the full log listing, and a reader that quits. */
export async function controlBursts(ctx: Context): Promise<void> {
  const calls: Array<[string, Call, (s: number) => boolean]> = [
    ["control state", { method: "GET", path: "/__sim/state" }, (s) => s === 200],
    [
      "control requests",
      { method: "GET", path: "/__sim/requests", readLimit: Number.MAX_SAFE_INTEGER },
      listed,
    ],
    ["control switches", { method: "GET", path: "/__sim/switches" }, (s) => s === 200],
    [
      "control patch",
      { method: "PATCH", path: "/__sim/switches", headers: JSON_TYPE, body: '{"getStatus":200}' },
      (s) => s === 200,
    ],
    ["control faults", { method: "GET", path: "/__sim/faults" }, (s) => s === 200],
    ["control deliveries", { method: "GET", path: "/__sim/deliveries" }, listed],
    ["control quitter", { method: "GET", path: "/__sim/requests", readLimit: 100_000 }, listed],
    ["control delivery quitter", { method: "GET", path: "/__sim/deliveries", readLimit: 50_000 }, listed],
    [
      "control cross-site reset",
      { method: "POST", path: "/__sim/reset", headers: { origin: "https://evil.example" } },
      (s) => s === 403,
    ],
    [
      "control text/plain fault",
      {
        method: "POST",
        path: "/__sim/faults",
        headers: { "content-type": "text/plain" },
        body: '{"kind":"status","status":500}',
      },
      (s) => s === 415,
    ],
    [
      "control rebound host",
      { method: "GET", path: "/__sim/state", headers: { host: "rebind.evil.example" } },
      (s) => s === 403,
    ],
    [
      "control bad",
      { method: "PATCH", path: "/__sim/switches", headers: JSON_TYPE, body: `{"x":${nested(20_000)}}` },
      (s) => s === 422,
    ],
  ];
  while (Date.now() < ctx.deadline) {
    await Promise.all(
      Array.from({ length: CONTROL_BURST_SIZE }, () => {
        const [what, call, expect] = calls[Math.floor(ctx.random() * calls.length)] as (typeof calls)[number];
        return run(ctx, false, what, call, expect, false);
      }),
    );
    await sleep(CONTROL_BURST_EVERY_MS);
  }
}
