/**
 * Benchmark of the Shipping Service API simulator (`npm run bench:sim`): starts the built CLI as a child
 * process on 127.0.0.1, seeds subscriptions, runs autocannon against GET by id and POST, prints a markdown
 * table and writes bench/results/sim.md and bench/results/sim.json. Exits 1 if the GET goal is missed.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join, resolve } from "node:path";
import { HOOKS } from "../contract/hooks";

/** Seconds each scenario runs. */
const DURATION_S = 5;
/** Seconds of warm-up before the measured GET run. */
const WARMUP_S = 1;
/** Concurrent connections. */
const CONNECTIONS = 10;
/** Goal: GET requests per second at least this. */
const GOAL_GET_RPS = 5_000;
/** Goal: GET p99 latency below this, in milliseconds. */
const GOAL_GET_P99_MS = 10;
/** How long to wait for the simulator to print its base URL, in milliseconds. */
const START_TIMEOUT_MS = 10_000;

const ROOT = resolve(__dirname, "..", "..");
const CLI = join(ROOT, "dist", "simulator", "cli.js");
const RESULTS = join(ROOT, "bench", "results");
const KEY = "sim_demo_rw";

interface Histogram {
  average: number;
  p50: number;
  p99: number;
}
interface AutocannonResult {
  requests: Histogram & { total: number };
  latency: Histogram;
  non2xx: number;
  errors: number;
  timeouts: number;
  duration: number;
}
interface AutocannonOptions {
  url: string;
  method: "GET" | "POST";
  connections: number;
  duration: number;
  headers: Record<string, string>;
  body?: string;
}
type Autocannon = (options: AutocannonOptions) => Promise<AutocannonResult>;

// autocannon ships no type declarations; the interface above lists the fields this script uses.
const autocannon = require("autocannon") as Autocannon;

/** One measured scenario. */
interface Row {
  scenario: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  total: number;
}

/** A bare node:http server answering a listing-sized JSON body: the ceiling of this machine, for comparison. */
const BASELINE_SERVER = `
const body = JSON.stringify({ data: { webhook_subscriptions: [{ id: 1, hook: "shipment_status_change", url: "https://example.com/status", shop_id: 1, account_id: 1 }] } });
const server = require("node:http").createServer((req, res) => {
  res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body) });
  res.end(body);
});
server.listen(0, "127.0.0.1", () => process.stdout.write("listening on http://127.0.0.1:" + server.address().port + "\\n"));
process.on("SIGTERM", () => process.exit(0));
`;

function startChild(args: string[]): Promise<{ child: ChildProcess; baseUrl: string }> {
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((done, fail) => {
    let out = "";
    const timer = setTimeout(
      () => fail(new Error(`simulator did not start within ${START_TIMEOUT_MS} ms`)),
      START_TIMEOUT_MS,
    );
    child.once("exit", (code) => fail(new Error(`simulator exited early with ${code}`)));
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+)\n/.exec(out);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        done({ child, baseUrl: match[1] });
      }
    });
  });
}

function row(scenario: string, r: AutocannonResult): Row {
  return {
    scenario,
    requestsPerSecond: Math.round(r.requests.average),
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    total: r.requests.total,
  };
}

async function main(): Promise<void> {
  const baseline = await startChild(["-e", BASELINE_SERVER]);
  let bare: Row;
  try {
    const options = {
      url: `${baseline.baseUrl}/`,
      method: "GET" as const,
      connections: CONNECTIONS,
      headers: {},
    };
    await autocannon({ ...options, duration: WARMUP_S });
    bare = row("baseline: bare node:http, same body", await autocannon({ ...options, duration: DURATION_S }));
  } finally {
    baseline.child.kill("SIGTERM");
  }
  const { child, baseUrl } = await startChild([CLI, "--port", "0"]);
  const headers = {
    authorization: `bearer ${Buffer.from(KEY).toString("base64")}`,
    "user-agent": "CustomApiCall/2",
    "content-type": "application/json; charset=utf-8",
  };
  try {
    const seed = await fetch(`${baseUrl}/webhook_subscriptions`, {
      method: "POST",
      headers,
      body: JSON.stringify({
        data: {
          webhook_subscriptions: HOOKS.map((hook) => ({ hook, url: `https://example.com/${hook}` })),
        },
      }),
    });
    const ids = ((await seed.json()) as { data: { ids: Array<{ id: number }> } }).data.ids.map((i) => i.id);
    const getUrl = `${baseUrl}/webhook_subscriptions/${ids[0]}`;
    const base = { connections: CONNECTIONS, headers };

    await autocannon({ ...base, url: getUrl, method: "GET", duration: WARMUP_S });
    const get = row(
      `GET /webhook_subscriptions/{id}`,
      await autocannon({ ...base, url: getUrl, method: "GET", duration: DURATION_S }),
    );
    const post = row(
      "POST /webhook_subscriptions",
      await autocannon({
        ...base,
        url: `${baseUrl}/webhook_subscriptions`,
        method: "POST",
        duration: DURATION_S,
        body: JSON.stringify({
          data: { webhook_subscriptions: [{ hook: "order_status_change", url: "https://example.com/o" }] },
        }),
      }),
    );
    const met = get.requestsPerSecond >= GOAL_GET_RPS && get.p99Ms < GOAL_GET_P99_MS && get.non2xx === 0;
    const goal = `GET >= ${GOAL_GET_RPS} req/s and p99 < ${GOAL_GET_P99_MS} ms`;
    const lines: string[] = [
      `# Simulator benchmark`,
      "",
      `${DURATION_S} s per scenario, ${CONNECTIONS} connections, loopback, simulator as a child process (in memory, rate limit off); ` +
        `node ${process.version}, ${cpus().length} CPU(s), ${new Date().toISOString()}.`,
      "",
      "| scenario | req/s | p50 (ms) | p99 (ms) | non-2xx | errors | requests |",
      "|---|---:|---:|---:|---:|---:|---:|",
      ...[get, post, bare].map(
        (r) =>
          `| ${r.scenario} | ${r.requestsPerSecond} | ${r.p50Ms} | ${r.p99Ms} | ${r.non2xx} | ${r.errors} | ${r.total} |`,
      ),
      "",
      `Goal: ${goal}: **${met ? "met" : "MISSED"}**.`,
      "",
    ];
    const markdown = lines.join("\n");
    process.stdout.write(markdown);
    mkdirSync(RESULTS, { recursive: true });
    writeFileSync(join(RESULTS, "sim.md"), markdown);
    writeFileSync(
      join(RESULTS, "sim.json"),
      `${JSON.stringify(
        {
          at: new Date().toISOString(),
          node: process.version,
          cpus: cpus().length,
          durationSeconds: DURATION_S,
          connections: CONNECTIONS,
          goal: { getRequestsPerSecond: GOAL_GET_RPS, getP99Ms: GOAL_GET_P99_MS },
          met,
          results: [get, post],
          baseline: bare,
        },
        null,
        2,
      )}\n`,
    );
    process.exitCode = met ? 0 : 1;
  } finally {
    child.kill("SIGTERM");
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench-sim: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
