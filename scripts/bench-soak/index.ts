/**
 * Soak benchmark of the simulator (`npm run bench:soak -- --duration 600`): the simulator runs in this
 * process with a data file; a second process sends mixed valid and hostile traffic (bodies up to the
 * limit, JSON nested up to 100,000 deep, slow and aborted uploads, readers that quit, bursts of control
 * calls, a paced 1 MiB body of 349,000 `{}` items, clients that keep silent or trickle a body and never close
 * their end: heldSockets.ts). Every interval it prints RSS, heap, open descriptors, req/s and p99; at the
 * end the goal verdicts: RSS flat within 20% after the warm-up and under 250 MB, descriptors flat, no 5xx, no crash, the state equal to the traffic's model of its
 * answered writes (in memory and in the data file). Writes bench/results/soak.md and soak.json; exits 1
 * when a goal is missed.
 */
import { type ChildProcess, fork } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { createPrivateCa } from "../../examples/receiver/privateCa";
import { DEFAULT_SHOPS, type RunningSimulator, startSimulator } from "../../simulator";
import { markdownTable } from "../bench/table";
import { SOAK_DELIVERY_SWITCHES } from "./deliveries";
import { soakShops } from "./shops";
import type { IntervalStats } from "./stats";
import type { StartMessage } from "./traffic";

/** Goal: RSS stays within this share of its value at the end of the warm-up. */
const GOAL_RSS_FLAT_SHARE = 0.2;
/** Goal: RSS below this, in bytes. */
const GOAL_RSS_MAX_BYTES = 250 * 1024 * 1024;
/**
 * Goal: open descriptors after the warm-up stay within this many of the first count after it (the held
 * clients, 8 at most at a time, come and go; a simulator that kept their sockets would climb without end).
 */
const GOAL_FDS_FLAT_COUNT = 64;
/** How long the traffic process may take to answer a sample request, in milliseconds. */
const SAMPLE_TIMEOUT_MS = 30_000;
/** How long the traffic may take to wind down after its deadline (slow and big requests), in ms. */
const WIND_DOWN_MS = 120_000;

const ROOT = resolve(__dirname, "..", "..", "..");
const RESULTS = join(ROOT, "bench", "results");
const MIB = 1024 * 1024;

interface Flags {
  durationS: number;
  intervalS: number;
  warmupS: number;
  seed: number;
}

function flags(): Flags {
  const { values } = parseArgs({
    options: {
      duration: { type: "string", default: "600" },
      interval: { type: "string", default: "30" },
      warmup: { type: "string", default: "60" },
      seed: { type: "string", default: "1123" },
    },
  });
  const number = (name: string, text: string): number => {
    const value = Number(text);
    if (!Number.isInteger(value) || value < 1)
      throw new Error(`--${name} must be a positive integer of seconds (got "${text}")`);
    return value;
  };
  return {
    durationS: number("duration", values.duration),
    intervalS: number("interval", values.interval),
    warmupS: Math.max(0, Number(values.warmup)),
    seed: number("seed", values.seed),
  };
}

/** One printed row. */
interface Sample extends IntervalStats {
  atS: number;
  rssBytes: number;
  heapBytes: number;
  /** Open file descriptors of this process (the simulator's), -1 where /proc/self/fd is not readable. */
  fds: number;
  requestsPerSecond: number;
  fiveXx: number;
}

function waitFor<T>(child: ChildProcess, type: string, timeoutMs: number): Promise<T> {
  return new Promise((resolveMessage, reject) => {
    const timer = setTimeout(() => {
      child.off("message", onMessage);
      reject(new Error(`the traffic process sent no "${type}" within ${timeoutMs} ms`));
    }, timeoutMs);
    const onMessage = (message: { type: string }): void => {
      if (message.type !== type) return;
      clearTimeout(timer);
      child.off("message", onMessage);
      resolveMessage(message as T);
    };
    child.on("message", onMessage);
  });
}

/** Open file descriptors of this process; -1 where /proc/self/fd cannot be read (not Linux). */
function openDescriptors(): number {
  try {
    return readdirSync("/proc/self/fd").length;
  } catch {
    return -1;
  }
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const mb = (bytes: number): string => (bytes / MIB).toFixed(1);
const fiveXxOf = (byStatus: Record<string, number>): number =>
  Object.entries(byStatus).reduce((n, [status, count]) => (Number(status) >= 500 ? n + count : n), 0);

interface Done {
  /** Requests the receiver got (delivery attempts). */
  received: number;
  slots: Array<{ shop: string; hook: string; model: { id: number; url: string } | undefined }>;
  total: { requests: number; unexpected: number; byStatus: Record<string, number>; samples: string[] };
}

/** Differences between the traffic's model and a state (`{shops:{name:[{id,hook,url}]}}`). */
function modelDifferences(
  done: Done,
  state: { shops: Record<string, Array<{ id: number; hook: string; url: string }>> },
): string[] {
  const problems: string[] = [];
  for (const { shop, hook, model } of done.slots) {
    const found = state.shops[shop]?.find((s) => s.hook === hook);
    const actual = found === undefined ? undefined : { id: found.id, url: found.url };
    if (JSON.stringify(actual) !== JSON.stringify(model)) {
      problems.push(`${shop}/${hook}: model ${JSON.stringify(model)}, found ${JSON.stringify(actual)}`);
    }
  }
  return problems;
}

async function main(): Promise<void> {
  const options = flags();
  const dir = mkdtempSync(join(tmpdir(), "sim-soak-"));
  const dataFile = join(dir, "state.json");
  const ca = await createPrivateCa();
  const sim: RunningSimulator = await startSimulator({
    dataFile,
    shops: [...DEFAULT_SHOPS, ...soakShops()],
    deliveryCa: ca.caPem,
    switches: SOAK_DELIVERY_SWITCHES,
  });
  const child = fork(join(__dirname, "traffic.js"), [], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  let exited: number | null | undefined;
  child.once("exit", (code) => {
    exited = code;
  });
  const start: StartMessage = {
    type: "start",
    baseUrl: sim.baseUrl,
    durationMs: options.durationS * 1000,
    seed: options.seed,
    tls: ca.server,
  };
  const done = waitFor<Done>(child, "done", options.durationS * 1000 + WIND_DOWN_MS);
  child.send(start);
  const began = Date.now();
  const header = ["t (s)", "RSS (MB)", "heap (MB)", "fds", "req/s", "p99 (ms)", "5xx", "unexpected"];
  process.stdout.write(
    `Soak: ${options.durationS} s, report every ${options.intervalS} s, seed ${options.seed}\n\n`,
  );
  process.stdout.write(`${markdownTable(header, [])}\n`);
  const samples: Sample[] = [];
  for (let next = options.intervalS; next <= options.durationS; next += options.intervalS) {
    await sleep(Math.max(0, began + next * 1000 - Date.now()));
    child.send({ type: "sample" });
    const { stats } = await waitFor<{ stats: IntervalStats }>(child, "sample", SAMPLE_TIMEOUT_MS);
    // After a full collection when available (node --expose-gc): retained memory, not GC timing.
    (globalThis as { gc?: () => void }).gc?.();
    const memory = process.memoryUsage();
    const sample: Sample = {
      ...stats,
      atS: next,
      rssBytes: memory.rss,
      heapBytes: memory.heapUsed,
      fds: openDescriptors(),
      requestsPerSecond: Math.round(stats.requests / options.intervalS),
      fiveXx: fiveXxOf(stats.byStatus),
    };
    samples.push(sample);
    const row = [
      next,
      mb(sample.rssBytes),
      mb(sample.heapBytes),
      sample.fds,
      sample.requestsPerSecond,
      sample.p99Ms.toFixed(1),
      sample.fiveXx,
      sample.unexpected,
    ];
    process.stdout.write(`${markdownTable(header, [row]).split("\n")[2]}\n`);
  }
  const final = await done;
  child.disconnect();
  const alive =
    (await fetch(`${sim.baseUrl}/`)
      .then((r) => r.status)
      .catch(() => 0)) === 200;
  const memoryDiffs = modelDifferences(final, sim.state());
  await sim.close();
  const fileDiffs = modelDifferences(final, JSON.parse(readFileSync(dataFile, "utf8")));

  const afterWarmup = samples.filter((s) => s.atS >= options.warmupS);
  const base = afterWarmup[0]?.rssBytes ?? Number.NaN;
  const worstDrift = Math.max(0, ...afterWarmup.map((s) => Math.abs(s.rssBytes - base) / base));
  const maxRss = Math.max(...samples.map((s) => s.rssBytes));
  const baseFds = afterWarmup[0]?.fds ?? -1;
  const worstFds = Math.max(0, ...afterWarmup.map((s) => Math.abs(s.fds - baseFds)));
  const fiveXx = fiveXxOf(final.total.byStatus);
  const verdicts: Array<[string, string, boolean]> = [
    [
      `RSS flat within ${GOAL_RSS_FLAT_SHARE * 100}% after ${options.warmupS} s`,
      afterWarmup.length < 2
        ? "fewer than 2 samples after the warm-up"
        : `worst drift ${(worstDrift * 100).toFixed(1)}% from ${mb(base)} MB`,
      afterWarmup.length >= 2 && worstDrift <= GOAL_RSS_FLAT_SHARE,
    ],
    [`RSS under ${mb(GOAL_RSS_MAX_BYTES)} MB`, `max ${mb(maxRss)} MB`, maxRss < GOAL_RSS_MAX_BYTES],
    [
      `descriptors flat within ${GOAL_FDS_FLAT_COUNT} after ${options.warmupS} s`,
      baseFds < 0 ? "not measured (no /proc/self/fd)" : `worst drift ${worstFds} from ${baseFds}`,
      baseFds < 0 || (afterWarmup.length >= 2 && worstFds <= GOAL_FDS_FLAT_COUNT),
    ],
    ["no 5xx", `${fiveXx} of ${final.total.requests} answers`, fiveXx === 0],
    [
      "no crash",
      alive && exited !== 1 ? "simulator answered GET / at the end" : "simulator or traffic died",
      alive && exited !== 1,
    ],
    [
      "state equals the model of answered writes (memory and data file)",
      memoryDiffs.length + fileDiffs.length === 0
        ? `${final.slots.length} slots equal`
        : [...memoryDiffs, ...fileDiffs].slice(0, 5).join("; "),
      memoryDiffs.length + fileDiffs.length === 0,
    ],
  ];
  const verdictTable = markdownTable(
    ["goal", "measured", "met"],
    verdicts.map(([goal, got, met]) => [goal, got, met ? "yes" : "NO"]),
  );
  const statuses = Object.entries(final.total.byStatus)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([s, n]) => `${s}: ${n}`)
    .join(", ");
  const attempts = sim.deliveries().length;
  const extra = `Delivery attempts received by the soak's receiver: ${final.received} (the delivery log held the last ${attempts} at the end). Answers by status: ${statuses}. Unexpected answers (a status the scenario did not expect): ${final.total.unexpected}${final.total.samples.length > 0 ? ` (e.g. ${final.total.samples.slice(0, 5).join("; ")})` : ""}.`;
  process.stdout.write(`\n${verdictTable}\n\n${extra}\n`);

  mkdirSync(RESULTS, { recursive: true });
  const rows = samples.map((s) => [
    s.atS,
    mb(s.rssBytes),
    mb(s.heapBytes),
    s.fds,
    s.requestsPerSecond,
    s.p99Ms.toFixed(1),
    s.fiveXx,
    s.unexpected,
  ]);
  const markdown = [
    "# Simulator soak",
    "",
    `\`npm run bench:soak -- --duration ${options.durationS} --interval ${options.intervalS} --warmup ${options.warmupS} --seed ${options.seed}\`, Node ${process.version}, ${new Date().toISOString()}.`,
    "The simulator runs in the benchmark's process (RSS and heap are its, sampled after a full GC when node runs with --expose-gc, as `npm run bench:soak` does); the traffic comes from a second process.",
    "",
    markdownTable(header, rows),
    "",
    verdictTable,
    "",
    extra,
    "",
  ].join("\n");
  writeFileSync(join(RESULTS, "soak.md"), markdown);
  writeFileSync(
    join(RESULTS, "soak.json"),
    `${JSON.stringify({ options, samples, verdicts, total: final.total }, null, 2)}\n`,
  );
  if (!verdicts.every(([, , met]) => met)) process.exitCode = 1;
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:soak failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
