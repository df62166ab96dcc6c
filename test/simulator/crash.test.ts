/**
 * kill -9 under load: 20 writers POST and DELETE concurrently through the built CLI with a data file, the
 * process is killed at a generated moment, and a restart on the same file must load it and hold every
 * answered write (an unanswered one may or may not be there). Rounds chain: each restart is the next
 * round's simulator. `npm test` runs CRASH_ROUNDS (default 10); `npm run test:crash` runs 50.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { CLI, killHard, type SimProcess, startSimProcess } from "./simProcess";

const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 10);
const SEED = Number(process.env.CRASH_SEED ?? 20_261_123);
const WRITERS = 20;
/** Bounds of the moment of the kill after the writers start, in milliseconds. */
const KILL_AFTER_MS = { min: 10, max: 400 };
/** Per request, in milliseconds: a writer never waits longer (the kill ends everything sooner). */
const REQUEST_TIMEOUT_MS = 10_000;
/** Per round: a start on a loaded machine, the writers, the kill. */
const ROUND_BUDGET_MS = 8_000;

const HOOKS = ["shipment_status_change", "shipment_label_created", "order_status_change"] as const;
const SHOP_COUNT = Math.ceil(WRITERS / HOOKS.length);
const keyOf = (shop: number): string => `crash-key-${shop}`;
const SEEDS = Array.from({ length: SHOP_COUNT }, (_, i) => ({
  name: `s${i}`,
  keys: { readWrite: [keyOf(i)] },
}));

interface Sub {
  id: number;
  url: string;
}
type Op =
  | { kind: "post"; url: string; answered: boolean; id?: number }
  | { kind: "delete"; id: number; answered: boolean };

/** One writer's (shop, hook): what it held when the round began and the writes it sent since. */
interface Slot {
  writer: number;
  shop: string;
  key: string;
  hook: (typeof HOOKS)[number];
  before: Sub | undefined;
  ops: Op[];
}

interface Reply {
  status: number;
  body: string;
}

function send(
  agent: Agent,
  baseUrl: string,
  method: string,
  path: string,
  key: string,
  body?: string,
): Promise<Reply> {
  const url = new URL(path, baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        method,
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        timeout: REQUEST_TIMEOUT_MS,
        headers: {
          authorization: `bearer ${Buffer.from(key).toString("base64")}`,
          "user-agent": "CustomApiCall/2",
          ...(body === undefined ? {} : { "content-type": "application/json; charset=utf-8" }),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error("request timeout")));
    req.on("error", reject);
    req.end(body);
  });
}

/** Write until the connection fails (the kill); a non-2xx answer is a failure of the simulator. */
async function runWriter(baseUrl: string, slot: Slot, round: number): Promise<string | undefined> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  let current = slot.before;
  try {
    for (let i = 0; ; i++) {
      const remove = current !== undefined && i % 4 === 3;
      let op: Op;
      let reply: Reply;
      if (remove && current !== undefined) {
        op = { kind: "delete", id: current.id, answered: false };
        slot.ops.push(op);
        try {
          reply = await send(agent, baseUrl, "DELETE", `/webhook_subscriptions/${current.id}`, slot.key);
        } catch {
          return undefined;
        }
        if (reply.status !== 204) return `DELETE answered ${reply.status}: ${reply.body}`;
        current = undefined;
      } else {
        const url = `https://w${slot.writer}.example/r${round}/${i}`;
        op = { kind: "post", url, answered: false };
        slot.ops.push(op);
        const body = JSON.stringify({ data: { webhook_subscriptions: [{ hook: slot.hook, url }] } });
        try {
          reply = await send(agent, baseUrl, "POST", "/webhook_subscriptions", slot.key, body);
        } catch {
          return undefined;
        }
        if (reply.status !== 200) return `POST answered ${reply.status}: ${reply.body}`;
        const id = (JSON.parse(reply.body) as { data: { ids: Array<{ id: number }> } }).data.ids[0]?.id;
        if (id === undefined) return `POST answered without an id: ${reply.body}`;
        op.id = id;
        current = { id, url };
      }
      op.answered = true;
    }
  } finally {
    agent.destroy();
  }
}

/** The slot's state after op `index` (-1: before the round); `id` undefined = not known (not answered). */
function stateAfter(slot: Slot, index: number): { id?: number; url: string } | undefined {
  if (index < 0) return slot.before;
  const op = slot.ops[index] as Op;
  if (op.kind === "delete") return undefined;
  return op.id === undefined ? { url: op.url } : { id: op.id, url: op.url };
}

/** Why the restarted state of a slot contradicts its answered writes, or undefined when it does not. */
function contradiction(slot: Slot, actual: Sub | undefined): string | undefined {
  let lastAnswered = -1;
  slot.ops.forEach((op, i) => {
    if (op.answered) lastAnswered = i;
  });
  const allowed = [stateAfter(slot, lastAnswered)];
  if (lastAnswered + 1 < slot.ops.length) allowed.push(stateAfter(slot, lastAnswered + 1));
  const fits = allowed.some((want) =>
    want === undefined
      ? actual === undefined
      : actual !== undefined && actual.url === want.url && (want.id === undefined || want.id === actual.id),
  );
  if (fits) return undefined;
  return `writer ${slot.writer} (${slot.shop}/${slot.hook}): found ${JSON.stringify(actual)}, expected one of ${JSON.stringify(allowed)} after ${slot.ops.length} writes (${lastAnswered + 1} answered)`;
}

interface StateReply {
  nextId: number;
  shops: Record<string, Array<{ id: number; hook: string; url: string }>>;
}

async function stateOf(sim: SimProcess): Promise<StateReply> {
  const reply = await fetch(`${sim.baseUrl}/__sim/state`);
  return (await reply.json()) as StateReply;
}

function subOf(state: StateReply, slot: Slot): Sub | undefined {
  const found = state.shops[slot.shop]?.find((s) => s.hook === slot.hook);
  return found === undefined ? undefined : { id: found.id, url: found.url };
}

beforeAll(() => {
  const built = statSync(CLI, { throwIfNoEntry: false });
  if (built === undefined) throw new Error(`${CLI} is missing: run "npm run build" first`);
});

describe("kill -9 under 20 concurrent writers", () => {
  it(
    `every answered write survives ${ROUNDS} kills at generated moments, and the file always loads`,
    async () => {
      const dir = await mkdtemp(join(tmpdir(), "sim-crash-"));
      const dataFile = join(dir, "state.json");
      const seedFile = join(dir, "seed.json");
      writeFileSync(seedFile, JSON.stringify(SEEDS));
      const args = ["--data", dataFile, "--seed", seedFile];
      let answered = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.integer(KILL_AFTER_MS), { minLength: ROUNDS, maxLength: ROUNDS }),
          async (killAfter) => {
            const slots: Slot[] = Array.from({ length: WRITERS }, (_, writer) => {
              const shop = Math.floor(writer / HOOKS.length);
              return {
                writer,
                shop: `s${shop}`,
                key: keyOf(shop),
                hook: HOOKS[writer % HOOKS.length] as Slot["hook"],
                before: undefined,
                ops: [],
              };
            });
            let sim = await startSimProcess(args);
            try {
              for (const [round, delay] of killAfter.entries()) {
                const start = await stateOf(sim);
                for (const slot of slots) {
                  slot.before = subOf(start, slot);
                  slot.ops = [];
                }
                const writers = slots.map((slot) => runWriter(sim.baseUrl, slot, round));
                await new Promise((resolve) => setTimeout(resolve, delay));
                await killHard(sim);
                const failures = (await Promise.all(writers)).filter((f) => f !== undefined);
                if (failures.length > 0) throw new Error(`round ${round}: ${failures.join("; ")}`);
                answered += slots.reduce((n, s) => n + s.ops.filter((op) => op.answered).length, 0);
                // Must load (a start fails on an unusable file), without the temp files of cut saves.
                sim = await startSimProcess(args);
                if (existsSync(dataFile)) JSON.parse(readFileSync(dataFile, "utf8"));
                else if (answered > 0) throw new Error(`round ${round}: the data file is gone`);
                const leftovers = readdirSync(dir).filter((name) => name.endsWith(".tmp"));
                if (leftovers.length > 0)
                  throw new Error(`round ${round}: temp files left: ${leftovers.join(", ")}`);
                const after = await stateOf(sim);
                const problems = slots
                  .map((slot) => contradiction(slot, subOf(after, slot)))
                  .filter((p) => p !== undefined);
                if (problems.length > 0)
                  throw new Error(`round ${round} (kill after ${delay} ms): ${problems.join("; ")}`);
                const ids = Object.values(after.shops).flatMap((subs) => subs.map((s) => s.id));
                if (ids.some((id) => id >= after.nextId))
                  throw new Error(`round ${round}: an id is not below nextId`);
              }
            } finally {
              await killHard(sim);
            }
          },
        ),
        { seed: SEED, numRuns: 1, endOnFailure: true },
      );
      // The kills must land while writes are answered, or the test proves nothing.
      expect(answered).toBeGreaterThan(ROUNDS);
    },
    ROUNDS * ROUND_BUDGET_MS + 30_000,
  );
});
