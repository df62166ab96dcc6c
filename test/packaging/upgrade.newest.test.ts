import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../../simulator";
import {
  type ConsumerProject,
  drive,
  installConsumer,
  PULUMI_SDK_VERSION,
  packRepository,
  temporaryRoot,
} from "../support/consumer";
import { dist } from "../support/engine";
import { ACME_KEY, TEST_SHOPS } from "../support/shops";

/**
 * Run by scripts/newest-pair.sh (npm run test:newest) under the newest pair: this process is Node.js 24 with
 * the newest @pulumi/pulumi, and the CLI it finds is the newest. The project's own pair comes from there too.
 */
const BASELINE_ENV = [
  "SHIPPING_BASELINE_NODE",
  "SHIPPING_BASELINE_PULUMI_ROOT",
  "SHIPPING_BASELINE_PULUMI_SDK",
];
/** One consumer run: up to four engine operations on a loaded machine. */
const RUN_DEADLINE_MS = 300_000;
const TEST_TIMEOUT_MS = 2 * RUN_DEADLINE_MS;
/** `node --version` or `pulumi version` on a loaded machine. */
const VERSION_DEADLINE_MS = 30_000;
/** Removing two consumers' node_modules takes long on a loaded disk. */
const CLEANUP_TIMEOUT_MS = 300_000;

/** A Node.js, a Pulumi CLI and an @pulumi/pulumi, installed together in one consumer project. */
interface Pair {
  readonly label: string;
  readonly node: string;
  readonly pulumiRoot: string;
  readonly consumer: ConsumerProject;
}

let sim: RunningSimulator;
let root: string;
let baseline: Pair;
let newest: Pair;

function baselineEnv(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === "") {
    throw new Error(`${BASELINE_ENV.join(", ")} must be set: run this test with npm run test:newest`);
  }
  return value;
}

/** What `command --version` (node) or `command version` (pulumi) prints, e.g. `v20.20.2`. */
function versionOf(command: string, argument: "--version" | "version"): string {
  return execFileSync(command, [argument], {
    encoding: "utf8",
    timeout: VERSION_DEADLINE_MS,
    env: { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" },
  }).trim();
}

/** `Node.js v20.20.2, @pulumi/pulumi 3.248.0, Pulumi CLI v3.248.0`: a pair named by what its parts report. */
function pairLabel(node: string, sdk: string, pulumiRoot: string): string {
  const cli = versionOf(join(pulumiRoot, "bin", "pulumi"), "version");
  return `Node.js ${versionOf(node, "--version")}, @pulumi/pulumi ${sdk}, Pulumi CLI ${cli}`;
}

beforeAll(async () => {
  sim = await startSimulator({ shops: TEST_SHOPS });
  root = temporaryRoot();
  const { tarball } = await packRepository(root);
  const sdk = baselineEnv("SHIPPING_BASELINE_PULUMI_SDK");
  const baselineNode = baselineEnv("SHIPPING_BASELINE_NODE");
  const baselineRoot = baselineEnv("SHIPPING_BASELINE_PULUMI_ROOT");
  baseline = {
    label: pairLabel(baselineNode, sdk, baselineRoot),
    node: baselineNode,
    pulumiRoot: baselineRoot,
    consumer: await installConsumer(root, tarball, { name: "baseline", sdkVersion: sdk }),
  };
  const newestRoot = dist.pulumiCli.pulumiCliRoot();
  newest = {
    label: pairLabel(process.execPath, PULUMI_SDK_VERSION, newestRoot),
    node: process.execPath,
    pulumiRoot: newestRoot,
    consumer: await installConsumer(root, tarball, { name: "newest", sdkVersion: PULUMI_SDK_VERSION }),
  };
  console.log(`Project's pair: ${baseline.label}; newest pair: ${newest.label}`);
}, 900_000);

afterAll(async () => {
  await sim?.close();
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
}, CLEANUP_TIMEOUT_MS);

/** Runs `operations` on the shared stack with `pair`; both pairs use the same file backend. */
function run(pair: Pair, stack: string, operations: string) {
  return drive(pair.consumer, {
    script: "deploy.cjs",
    node: pair.node,
    pulumiRoot: pair.pulumiRoot,
    apiKey: ACME_KEY,
    baseUrl: sim.baseUrl,
    hookUrl: `https://hooks.example.com/upgrade/${stack}`,
    secretHookUrl: `https://hooks.example.com/upgrade/${stack}?token=secret-token`,
    stack,
    operations,
    deadlineMs: RUN_DEADLINE_MS,
  });
}

describe("state moves between the project's pair and the newest pair", () => {
  it.each([
    ["from the project's pair to the newest", () => [baseline, newest] as const],
    ["from the newest pair back to the project's", () => [newest, baseline] as const],
  ])(
    "%s: update, refresh and destroy with no diff and no lost output",
    async (name, pairs) => {
      const [writer, reader] = pairs();
      sim.reset();
      const stack = name.includes("back") ? "downgrade" : "upgrade";
      const written = await run(writer, stack, "up");
      const [up] = written.report.results;
      expect(up?.changes, writer.label).toEqual({ create: 3 });
      expect(up?.outputs?.labelsUrl?.secret).toBe(true);
      const live = sim.subscriptions("acme");
      const before = sim.requests().length;

      const read = await run(reader, stack, "preview,up,refresh,destroy");
      expect(
        read.report.results.map((r) => [r.operation, r.changes]),
        reader.label,
      ).toEqual([
        ["preview", { same: 3 }],
        ["up", { same: 3 }],
        ["refresh", { same: 3 }],
        ["destroy", { delete: 3 }],
      ]);
      // No output lost or changed, secrets still secret: after the update and after the refresh.
      expect(read.report.results[1]?.outputs).toEqual(up?.outputs);
      expect(read.report.results[2]?.outputs).toEqual(up?.outputs);
      // The newer pair wrote nothing before its destroy, which removed exactly what the other pair created.
      const writes = sim
        .requests()
        .slice(before)
        .filter((r) => r.method !== "GET");
      expect(writes.map((r) => r.method)).toEqual(writes.map(() => "DELETE"));
      expect(live).toHaveLength(2);
      expect(sim.subscriptions("acme")).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
});
