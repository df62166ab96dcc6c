/**
 * The HTTP fuzzer's driver: a fast-check property over sequences of generated requests, spread over lanes
 * (one shop each) that run in parallel against one simulator over loopback. A failing sequence shrinks to a
 * minimal one, printed as the raw bytes sent.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import fc from "fast-check";
import { type RunningSimulator, startSimulator } from "../../simulator";
import { type FuzzRequest, fuzzRequest } from "./grammar";
import { Lane, type Violation } from "./lane";

/** What to run. */
export interface FuzzOptions {
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
export interface FuzzReport {
  sent: number;
  elapsedMs: number;
  statuses: Map<number, number>;
  kinds: Map<string, number>;
  /** The shrunk failure: fast-check's report with the seed and the minimal sequence. */
  failure?: string;
}

/** Stalled bodies are answered 408 after this many milliseconds in a fuzz run (the default is 10 s). */
export const FUZZ_BODY_TIMEOUT_MS = 250;
/** How much of fast-check's report (with the shrunk sequence) a failure keeps, in characters. */
const SHOWN_REPORT_CHARS = 8_000;
const OTHER_SHOP = { name: "globex", keys: { readWrite: ["fuzz-globex-rw"] } };
const OTHER_HOOKS = ["order_status_change", "shipment_label_created"];

function shops(lanes: number) {
  return [
    ...Array.from({ length: lanes }, (_, i) => ({
      name: `lane${i}`,
      keys: { readWrite: [`fuzz-lane${i}-rw`], readOnly: [`fuzz-lane${i}-ro`] },
    })),
    OTHER_SHOP,
  ];
}

/** Empty every shop, then give the other shop the subscriptions no lane may touch; answers their ids. */
async function resetWorld(sim: RunningSimulator): Promise<number[]> {
  sim.reset();
  const response = await fetch(`${sim.baseUrl}/webhook_subscriptions`, {
    method: "POST",
    headers: {
      authorization: `bearer ${Buffer.from(OTHER_SHOP.keys.readWrite[0] ?? "").toString("base64")}`,
      "content-type": "application/json",
    },
    body: JSON.stringify({
      data: {
        webhook_subscriptions: OTHER_HOOKS.map((hook) => ({ hook, url: `https://globex.example/${hook}` })),
      },
    }),
  });
  const json = (await response.json()) as { data: { ids: Array<{ id: number }> } };
  return json.data.ids.map(({ id }) => id);
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

  const runs = Math.ceil(options.requests / options.sequence) * 4;
  const result = await fc.check(
    fc.asyncProperty(
      fc.array(fuzzRequest, { minLength: 1, maxLength: options.sequence, size: "max" }),
      async (requests) => {
        if (!shrinking && report.sent >= options.requests) return true;
        const tally = shrinking ? { sent: 0, statuses: new Map(), kinds: new Map() } : report;
        const violation = await runSequence(sim, requests, options.lanes, tally);
        options.progress?.(report.sent);
        if (violation === undefined) return true;
        shrinking = true;
        throw new Error(
          `${violation.kind}: ${violation.problem}\n--- request sent ---\n${violation.request}`,
        );
      },
    ),
    { seed: options.seed, numRuns: runs, endOnFailure: false },
  );
  report.elapsedMs = Date.now() - started;
  if (result.failed) {
    const error =
      result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance);
    const details = (fc.defaultReportMessage(result) ?? "").slice(0, SHOWN_REPORT_CHARS);
    report.failure = `${error}\n--- fast-check (seed ${options.seed}) ---\n${details}`;
    if (options.failureFile !== undefined && result.counterexample !== null) {
      mkdirSync(dirname(options.failureFile), { recursive: true });
      writeFileSync(options.failureFile, JSON.stringify(result.counterexample[0], null, 1));
      report.failure += `\nreplay: npm run fuzz:sim -- --replay ${options.failureFile} --lanes ${options.lanes}`;
    }
  }
  const alive = await fetch(`${sim.baseUrl}/`);
  if (alive.status !== 200) report.failure ??= `GET / answers ${alive.status} after the run`;
  await sim.close();
  return report;
}
