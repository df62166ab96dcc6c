/**
 * `npm run fuzz:sim -- [--requests N] [--seed S] [--lanes L] [--sequence K]`: the HTTP fuzzer of the
 * simulator, run long; prints a table of statuses and request kinds, and on a failure the shrunk sequence
 * (written to .tmp/fuzz/) and the command that replays it. `--replay <file>` sends a recorded sequence again.
 * Exit status 1 on a violation, 2 on a bad command line.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import type { FuzzRequest } from "./fuzz/grammar";
import { replayFuzz, runFuzz } from "./fuzz/run";

const DEFAULTS = { requests: 200_000, lanes: 8, sequence: 400 };
const PROGRESS_EVERY_MS = 10_000;

function positive(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1) {
    console.error(`--${name} must be a positive integer, got "${text}"`);
    process.exit(2);
  }
  return value;
}

function table(title: string, rows: Map<string | number, number>): string {
  const lines = [...rows].sort(([a], [b]) => String(a).localeCompare(String(b), "en", { numeric: true }));
  return [`| ${title} | requests |`, "|---|---:|", ...lines.map(([k, n]) => `| ${k} | ${n} |`)].join("\n");
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      requests: { type: "string" },
      seed: { type: "string" },
      lanes: { type: "string" },
      sequence: { type: "string" },
      replay: { type: "string" },
    },
  });
  const lanes = positive("lanes", values.lanes, DEFAULTS.lanes);
  if (values.replay !== undefined) {
    const requests = JSON.parse(readFileSync(values.replay, "utf8")) as FuzzRequest[];
    const violation = await replayFuzz(requests, lanes);
    console.log(
      violation === undefined
        ? "no violation"
        : `${violation.kind}: ${violation.problem}\n${violation.request}`,
    );
    process.exit(violation === undefined ? 0 : 1);
  }
  const requests = positive("requests", values.requests, DEFAULTS.requests);
  const seed = values.seed === undefined ? Date.now() % 0x7fffffff : Number(values.seed);
  if (!Number.isSafeInteger(seed)) {
    console.error(`--seed must be an integer, got "${values.seed}"`);
    process.exit(2);
  }
  const sequence = positive("sequence", values.sequence, DEFAULTS.sequence);
  console.log(
    `fuzzing the simulator: ${requests} requests, seed ${seed}, ${lanes} lanes, sequences of up to ${sequence}`,
  );
  let lastShown = Date.now();
  const started = Date.now();
  const report = await runFuzz({
    requests,
    seed,
    lanes,
    sequence,
    failureFile: `.tmp/fuzz/failure-${seed}.json`,
    progress: (sent) => {
      if (Date.now() - lastShown < PROGRESS_EVERY_MS) return;
      lastShown = Date.now();
      const perSecond = Math.round(sent / ((Date.now() - started) / 1000));
      console.log(
        `  ${sent} requests, ${perSecond} req/s, heap ${Math.round(process.memoryUsage().heapUsed / 2 ** 20)} MiB`,
      );
    },
  });
  // 501 is the one 5xx the grammar asks for (a transfer coding the simulator cannot decode, RFC 9112 6.1).
  const fivexx = [...report.statuses].filter(([s]) => s >= 500 && s !== 501).reduce((n, [, c]) => n + c, 0);
  console.log(
    `\n${report.sent} requests in ${(report.elapsedMs / 1000).toFixed(1)} s (${Math.round(report.sent / (report.elapsedMs / 1000))} req/s), seed ${seed}, 5xx: ${fivexx} (and ${report.statuses.get(501) ?? 0} expected 501)\n`,
  );
  console.log(table("status", report.statuses));
  console.log(`\n${table("kind", report.kinds)}\n`);
  if (report.failure !== undefined) {
    console.log(`FAILED\n${report.failure}`);
    process.exit(1);
  }
  console.log(
    "no violation: no 5xx but the expected 501s, every request answered, every 4xx in the error shape, state = answered writes",
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
