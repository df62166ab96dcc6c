/**
 * The HTTP fuzzer's driver: a fast-check property over sequences of generated requests, spread over lanes
 * (one shop each) that run in parallel against one simulator over loopback. A failing sequence shrinks to a
 * minimal one, printed as the raw bytes sent.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import fc from "fast-check";
import { HOOKS } from "../../contract/hooks";
import { type RunningSimulator, startSimulator } from "../../simulator";
import { type FuzzRequest, fuzzRequest } from "./grammar";
import { Lane, type Violation } from "./lane";
import { rawRequest } from "./rawClient";

/** What to run. */
interface FuzzOptions {
  /** Requests to send in all (the last sequence may stop short). */
  readonly requests: number;
  readonly seed: number;
  /** Parallel lanes (shops). */
  readonly lanes: number;
  /** Longest sequence of one property run. */
  readonly sequence: number;
  /** Called after each property run with the requests sent so far. */
  readonly progress?: (sent: number) => void;
  /** Where to write the shrunk failing sequence (JSON), for `npm run fuzz:sim -- --replay <file>`. */
  readonly failureFile?: string;
}

/** What happened. */
interface FuzzReport {
  sent: number;
  elapsedMs: number;
  statuses: Map<number, number>;
  kinds: Map<string, number>;
  /** The shrunk failure: fast-check's report with the seed and the minimal sequence. */
  failure?: string;
}

/** Stalled bodies are answered 408 after this many milliseconds in a fuzz run (the default is 10 s). */
const FUZZ_BODY_TIMEOUT_MS = 250;
/** Sequences per fast-check round (each round has its own seed, so a failure names the seed to replay). */
const RUNS_PER_ROUND = 10;
/** How much of fast-check's report (with the shrunk sequence) a failure keeps, in characters. */
const SHOWN_REPORT_CHARS = 8_000;
const OTHER_SHOP = { name: "globex", keys: { readWrite: ["fuzz-globex-rw"] } };
/** The other shop's subscriptions, which no lane may touch: every hook but the first. */
const OTHER_HOOKS = HOOKS.slice(1);

function shops(lanes: number) {
  return [
    ...Array.from({ length: lanes }, (_, i) => ({
      name: `lane${i}`,
      keys: { readWrite: [`fuzz-lane${i}-rw`], readOnly: [`fuzz-lane${i}-ro`] },
    })),
    OTHER_SHOP,
  ];
}

/** POST /webhook_subscriptions as `key` on a fresh connection; answers the ids. */
async function create(sim: RunningSimulator, key: string, hooks: readonly string[]): Promise<number[]> {
  const body = JSON.stringify({
    data: { webhook_subscriptions: hooks.map((hook) => ({ hook, url: `https://globex.example/${hook}` })) },
  });
  const { host } = new URL(sim.baseUrl);
  const outcome = await rawRequest(
    sim.baseUrl,
    `POST /webhook_subscriptions HTTP/1.1\r\nhost: ${host}\r\nauthorization: bearer ${Buffer.from(key).toString("base64")}\r\n` +
      `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
  if ("error" in outcome || outcome.reply.status !== 200)
    throw new Error(`seeding the other shop failed: ${JSON.stringify(outcome)}`);
  return (JSON.parse(outcome.reply.body) as { data: { ids: Array<{ id: number }> } }).data.ids.map(
    ({ id }) => id,
  );
}

/** Empty every shop, then give the other shop the subscriptions no lane may touch; answers their ids. */
async function resetWorld(sim: RunningSimulator): Promise<number[]> {
  await sim.reset();
  return create(sim, OTHER_SHOP.keys.readWrite[0] ?? "", OTHER_HOOKS);
}

/** Counters a sequence adds to (none while shrinking). */
interface Tally {
  sent: number;
  statuses: Map<number, number>;
  kinds: Map<string, number>;
}

/** Run one sequence over `lanes` lanes (request i goes to lane i mod lanes); answers the first violation. */
async function runSequence(
  sim: RunningSimulator,
  requests: readonly FuzzRequest[],
  laneCount: number,
  tally: Tally,
): Promise<Violation | undefined> {
  const { hostname, port } = new URL(sim.baseUrl);
  const otherIds = await resetWorld(sim);
  const otherBefore = JSON.stringify(sim.subscriptions(OTHER_SHOP.name));
  const lanes = Array.from(
    { length: laneCount },
    (_, i) =>
      new Lane(sim, {
        shop: `lane${i}`,
        key: `fuzz-lane${i}-rw`,
        readOnlyKey: `fuzz-lane${i}-ro`,
        otherIds,
        host: hostname.replace(/^\[(.*)\]$/, "$1"),
        port: Number(port),
      }),
  );
  const found: Violation[] = [];
  await Promise.all(
    lanes.map(async (lane, i) => {
      try {
        for (let at = i; at < requests.length && found.length === 0; at += laneCount) {
          const request = requests[at] as FuzzRequest;
          tally.kinds.set(request.kind, (tally.kinds.get(request.kind) ?? 0) + 1);
          const violation = await lane.send(request, tally.statuses);
          tally.sent++;
          if (violation !== undefined)
            found.push({ ...violation, kind: `lane ${i}, request ${at}: ${violation.kind}` });
        }
      } finally {
        lane.close();
      }
    }),
  );
  if (found.length === 0 && JSON.stringify(sim.subscriptions(OTHER_SHOP.name)) !== otherBefore)
    found.push({ kind: "isolation", problem: "the other shop changed", request: "" });
  return found[0];
}

async function fuzzSimulator(lanes: number): Promise<RunningSimulator> {
  return startSimulator({ shops: shops(lanes), bodyTimeoutMs: FUZZ_BODY_TIMEOUT_MS });
}

/** Send one recorded sequence (a failure file) again; answers the first violation, if any. */
export async function replayFuzz(
  requests: readonly FuzzRequest[],
  lanes: number,
): Promise<Violation | undefined> {
  const sim = await fuzzSimulator(lanes);
  try {
    return await runSequence(sim, requests, lanes, { sent: 0, statuses: new Map(), kinds: new Map() });
  } finally {
    await sim.close();
  }
}

/** Run the fuzzer against a simulator of its own; never throws for a violation (see `failure`). */
export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const sim = await fuzzSimulator(options.lanes);
  const report: FuzzReport = { sent: 0, elapsedMs: 0, statuses: new Map(), kinds: new Map() };
  const started = Date.now();
  let shrinking = false;

  const property = fc.asyncProperty(
    fc.array(fuzzRequest, { minLength: 1, maxLength: options.sequence, size: "max" }),
    async (requests) => {
      const tally = shrinking ? { sent: 0, statuses: new Map(), kinds: new Map() } : report;
      const violation = await runSequence(sim, requests, options.lanes, tally);
      if (!shrinking) options.progress?.(report.sent);
      if (violation === undefined) return true;
      shrinking = true;
      throw new Error(`${violation.kind}: ${violation.problem}\n--- request sent ---\n${violation.request}`);
    },
  );
  // Rounds of a few sequences each, seeded seed, seed+1, ...: stops as soon as enough requests were sent.
  for (let round = 0; report.sent < options.requests && report.failure === undefined; round++) {
    const seed = options.seed + round;
    const result = await fc.check(property, { seed, numRuns: RUNS_PER_ROUND });
    if (!result.failed) continue;
    const error =
      result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance);
    const details = (fc.defaultReportMessage(result) ?? "").slice(0, SHOWN_REPORT_CHARS);
    report.failure = `${error}\n--- fast-check (seed ${seed}, round ${round} of --seed ${options.seed}) ---\n${details}`;
    if (options.failureFile !== undefined && result.counterexample !== null) {
      mkdirSync(dirname(options.failureFile), { recursive: true });
      writeFileSync(options.failureFile, JSON.stringify(result.counterexample[0], null, 1));
      report.failure += `\nreplay: npm run fuzz:sim -- --replay ${options.failureFile} --lanes ${options.lanes}`;
    }
  }
  report.elapsedMs = Date.now() - started;
  const alive = await rawRequest(sim.baseUrl, `GET / HTTP/1.1\r\nhost: ${new URL(sim.baseUrl).host}\r\n\r\n`);
  if ("error" in alive || alive.reply.status !== 200)
    report.failure ??= `GET / after the run: ${JSON.stringify(alive)}`;
  await sim.close();
  return report;
}
