/**
 * The test fleet of fleet.fileAndPool.test.ts and fleet.lifecycle.test.ts: 4 groups x 3 shops, each shop with
 * a key of its own (and a wrong one), the fleet file, SHIPPING_SHOPS, and the fleet command line run as a user
 * runs it (the compiled runner, the Pulumi CLI from PATH), bounded in time.
 */
import { delimiter, join } from "node:path";
import { HOOKS } from "../../provider/inputs/hooks";
import type { ShopSeed } from "../../simulator";
import { dist, REPO_ROOT, type Sandbox } from "./engine";
import { type ProcessResult, runProcess } from "./process";

const CLI = join(REPO_ROOT, "dist", "examples", "fleet", "cli.js");

export const PROJECT = "fleet-test";
export const GROUPS = ["g-1", "g-2", "g-3", "g-4"];
const SHOPS_PER_GROUP = 3;
export const CONCURRENCY = 2;
/** One run of the command line: 4 stacks, 2 at a time, on a loaded 2-core machine. Finite, so nothing hangs. */
const RUN_DEADLINE_MS = 300_000;

const shopName = (group: string, i: number) => `${group}-shop-${i + 1}`;
export const shopsOf = (group: string) =>
  Array.from({ length: SHOPS_PER_GROUP }, (_, i) => shopName(group, i));
export const ALL_SHOPS = GROUPS.flatMap(shopsOf);
export const keyOf = (shop: string) => `fleet-test-key-${shop}`;
export const SEEDS: ShopSeed[] = ALL_SHOPS.map((name) => ({ name, keys: { readWrite: [keyOf(name)] } }));
export const urlOf = (shop: string, hook: string, version: number) =>
  `https://hooks.example.com/${shop}/${hook}/v${version}`;
/** A key the API does not know, one per shop (one shared key would make the shops one shop to the provider). */
export const badKeyOf = (shop: string) => `fleet-test-wrong-key-${shop}`;

/** The fleet file: every shop gets the three hooks at URL version `version`. */
export function fleetYaml(baseUrl: string, version: number): string {
  const hooks = HOOKS.map((hook) => `  ${hook}: https://hooks.example.com/{shop}/${hook}/v${version}`);
  const groups = GROUPS.map((group) => `  ${group}: [${shopsOf(group).join(", ")}]`);
  return [`project: ${PROJECT}`, `baseUrl: ${baseUrl}`, "hooks:", ...hooks, "groups:", ...groups, ""].join(
    "\n",
  );
}

/** SHIPPING_SHOPS with every shop's key; the shops of `badGroup` get a key the API does not know. */
export function shopsEnv(badGroup?: string): string {
  return JSON.stringify(
    Object.fromEntries(
      ALL_SHOPS.map((shop) => [
        shop,
        { apiKey: badGroup && shop.startsWith(`${badGroup}-`) ? badKeyOf(shop) : keyOf(shop) },
      ]),
    ),
  );
}

/** Runs the fleet command line as a user would, bounded by {@link RUN_DEADLINE_MS}. */
export function fleetCli(
  box: Sandbox,
  args: readonly string[],
  env: Record<string, string>,
): Promise<ProcessResult> {
  const cliBin = join(dist.pulumiCli.pulumiCliRoot(), "bin");
  return runProcess(process.execPath, [CLI, ...args], {
    cwd: box.root,
    env: {
      ...process.env,
      PATH: `${cliBin}${delimiter}${process.env.PATH ?? ""}`,
      PULUMI_HOME: box.pulumiHome,
      PULUMI_CONFIG_PASSPHRASE: "fleet-test-passphrase",
      PULUMI_DIY_BACKEND_NO_LEGACY_WARNING: "true",
      SHIPPING_SHOPS: "",
      SHIPPING_API_KEY: "",
      PULUMI_BACKEND_URL: "",
      ...env,
    },
    deadlineMs: RUN_DEADLINE_MS,
  });
}

/** The arguments of one operation over the test fleet. */
export function fleetArgs(box: Sandbox, operation: string): string[] {
  return [
    operation,
    "--fleet",
    join(box.root, "fleet.yaml"),
    "--concurrency",
    String(CONCURRENCY),
    "--backend",
    `file://${box.backendDir}`,
    "--work-dir",
    box.workDir,
  ];
}

/** The progress lines of one stack. */
export function linesOf(run: ProcessResult, group: string): string[] {
  return run.stdout.split("\n").filter((line) => line.startsWith(`[${group}] `));
}
