/**
 * Issue 15 item 6, beyond one stack: examples/fleet runs one Pulumi stack per group of shops, a bounded
 * number at once, through its command line as a user (or a CI job) runs it: the compiled runner, the Pulumi
 * CLI from PATH, keys only in SHIPPING_SHOPS. 4 groups x 3 shops x 3 hooks against the simulator, concurrency
 * 2: every hook subscribed, each stack holds only its own shops, a second up writes nothing, a preview shows
 * each stack's changes and writes nothing, a bad key fails only its group (exit status 1, the others deploy),
 * destroy removes everything.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as fleetModule from "../../examples/fleet/fleet";
import type * as poolModule from "../../examples/fleet/pool";
import { HOOKS } from "../../provider/hooks";
import { type RunningSimulator, type ShopSeed, startSimulator } from "../../simulator";
import { type ProcessResult, runProcess } from "../package/support/process";
import { secretForms } from "../support/shops";
import { dist, REPO_ROOT, type Sandbox, sandbox } from "./support/engine";

const CLI = join(REPO_ROOT, "dist", "examples", "fleet", "cli.js");
const fleetLib = dist.module("examples/fleet/fleet.js") as typeof fleetModule;
const pool = dist.module("examples/fleet/pool.js") as typeof poolModule;

const PROJECT = "fleet-test";
const GROUPS = ["g-1", "g-2", "g-3", "g-4"];
const SHOPS_PER_GROUP = 3;
const CONCURRENCY = 2;
/** One run of the command line: 4 stacks, 2 at a time, on a loaded 2-core machine. Finite, so nothing hangs. */
const RUN_DEADLINE_MS = 300_000;

const shopName = (group: string, i: number) => `${group}-shop-${i + 1}`;
const shopsOf = (group: string) => Array.from({ length: SHOPS_PER_GROUP }, (_, i) => shopName(group, i));
const ALL_SHOPS = GROUPS.flatMap(shopsOf);
const keyOf = (shop: string) => `fleet-test-key-${shop}`;
const SEEDS: ShopSeed[] = ALL_SHOPS.map((name) => ({ name, keys: { readWrite: [keyOf(name)] } }));
const urlOf = (shop: string, hook: string, version: number) =>
  `https://hooks.example.com/${shop}/${hook}/v${version}`;
/** A key the API does not know, one per shop (one shared key would make the shops one shop to the provider). */
const badKeyOf = (shop: string) => `fleet-test-wrong-key-${shop}`;

/** The fleet file: every shop gets the three hooks at URL version `version`. */
function fleetYaml(baseUrl: string, version: number): string {
  const hooks = HOOKS.map((hook) => `  ${hook}: https://hooks.example.com/{shop}/${hook}/v${version}`);
  const groups = GROUPS.map((group) => `  ${group}: [${shopsOf(group).join(", ")}]`);
  return [`project: ${PROJECT}`, `baseUrl: ${baseUrl}`, "hooks:", ...hooks, "groups:", ...groups, ""].join(
    "\n",
  );
}

/** SHIPPING_SHOPS with every shop's key; the shops of `badGroup` get a key the API does not know. */
function shopsEnv(badGroup?: string): string {
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
function fleetCli(
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
function fleetArgs(box: Sandbox, operation: string): string[] {
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
function linesOf(run: ProcessResult, group: string): string[] {
  return run.stdout.split("\n").filter((line) => line.startsWith(`[${group}] `));
}

/** Most stacks running at once, from the order of the started / done / failed lines. */
function mostInFlight(run: ProcessResult): number {
  let running = 0;
  let most = 0;
  for (const line of run.stdout.split("\n")) {
    if (/^\[[^\]]+\] \w+ started:/.test(line)) most = Math.max(most, ++running);
    if (/^\[[^\]]+\] \w+ (done in|FAILED after)/.test(line)) running--;
  }
  return most;
}

/** The URNs of the subscriptions in one stack's state file of the file backend. */
function subscriptionUrns(box: Sandbox, stack: string): string[] {
  const file = join(box.backendDir, ".pulumi", "stacks", PROJECT, `${stack}.json`);
  const checkpoint = JSON.parse(readFileSync(file, "utf8")) as {
    checkpoint: { latest?: { resources?: Array<{ urn: string; type: string }> } };
  };
  return (checkpoint.checkpoint.latest?.resources ?? [])
    .filter((r) => r.type.endsWith("WebhookSubscription"))
    .map((r) => r.urn)
    .sort();
}

/** The URNs a group's stack should hold: `<shop>-<hook>` for its own shops only. */
function expectedUrns(group: string): string[] {
  return shopsOf(group)
    .flatMap((shop) => HOOKS.map((hook) => `${shop}-${hook}`))
    .map(
      (name) =>
        `urn:pulumi:${group}::${PROJECT}::pulumi-nodejs:dynamic/shipping:WebhookSubscription::${name}`,
    )
    .sort();
}

/** Every form of every key used, found in `text`. */
function keysIn(text: string): string[] {
  return [...ALL_SHOPS.map(keyOf), ...ALL_SHOPS.map(badKeyOf)]
    .flatMap(secretForms)
    .filter((form) => text.includes(form));
}

/** The live subscriptions of a shop as hook -> URL. */
function live(shop: string): Record<string, string> {
  return Object.fromEntries(sim.subscriptions(shop).map((s) => [s.hook, s.url]));
}

const declared = (shop: string, version: number) =>
  Object.fromEntries(HOOKS.map((hook) => [hook, urlOf(shop, hook, version)]));

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ shops: SEEDS });
});
afterAll(() => sim.close());

describe("examples/fleet: the fleet file and the pool", () => {
  it("reports every problem of a fleet file with its path, before anything runs", () => {
    let message = "";
    try {
      fleetLib.parseFleet({
        project: "p",
        hooks: { order_status_change: "https://hooks.example.com/{shop}/Orders", nope: "https://x.example" },
        groups: { a: ["acme"], b: { acme: null }, "bad name": ["x"] },
      });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^fleet file: invalid fleet:/);
    expect(message).toMatch(/\n {2}hooks\.nope: not a hook; use one of shipment_status_change, /);
    expect(message.match(/hooks\.nope/g)).toHaveLength(1);
    expect(message).toMatch(/\n {2}groups\.a\.acme\.order_status_change: .* must be lowercase/);
    expect(message).toMatch(/\n {2}groups\.b\.acme: already in group a/);
    expect(message).toMatch(/\n {2}groups\.bad name: not a stack name/);
    expect(() => fleetLib.parseFleet({ project: "p", groups: {} })).toThrow(
      /groups: must map each stack name/,
    );
  });

  it("splits shops into near-equal groups in order", () => {
    expect(fleetLib.splitEvenly([1, 2, 3, 4, 5, 6, 7], 3)).toEqual([
      [1, 2, 3],
      [4, 5],
      [6, 7],
    ]);
    expect(fleetLib.groupName(0, 10)).toBe("group-01");
  });

  it("never runs more than K tasks at once, and runs them all", async () => {
    let running = 0;
    let most = 0;
    const results = await pool.mapWithConcurrency(
      Array.from({ length: 9 }, (_, i) => i),
      3,
      async (i) => {
        most = Math.max(most, ++running);
        await new Promise<void>((resolve) => setImmediate(resolve));
        running--;
        return i * 2;
      },
      () => -1,
    );
    expect(most).toBe(3);
    expect(results).toEqual([0, 2, 4, 6, 8, 10, 12, 14, 16]);
  });

  it("a bad fleet file or a missing passphrase exits 2, a shop without a key fails its stack: nothing is deployed", async () => {
    const box = sandbox("fleet-bad");
    writeFileSync(join(box.root, "fleet.yaml"), "project: p\ngroups:\n  a: [acme]\n");
    const noHooks = await fleetCli(box, fleetArgs(box, "up"), { SHIPPING_SHOPS: shopsEnv() });
    expect(noHooks.status).toBe(2);
    expect(noHooks.stderr).toMatch(/groups\.a\.acme: no hooks/);
    writeFileSync(join(box.root, "fleet.yaml"), fleetYaml(sim.baseUrl, 1));
    const noPassphrase = await fleetCli(box, fleetArgs(box, "up"), {
      SHIPPING_SHOPS: shopsEnv(),
      PULUMI_CONFIG_PASSPHRASE: "",
    });
    expect(noPassphrase.status).toBe(2);
    expect(noPassphrase.stderr).toMatch(/PULUMI_CONFIG_PASSPHRASE is not set/);
    const withoutG1 = JSON.stringify(
      Object.fromEntries(
        ALL_SHOPS.filter((shop) => !shop.startsWith("g-1-")).map((s) => [s, { apiKey: keyOf(s) }]),
      ),
    );
    const noKey = await fleetCli(box, [...fleetArgs(box, "up"), "--stack", "g-1"], {
      SHIPPING_SHOPS: withoutG1,
    });
    expect(noKey.status).toBe(1);
    expect(linesOf(noKey, "g-1")[1]).toMatch(
      /^\[g-1\] up FAILED after [\d.]+ s: SHIPPING_SHOPS has no key for g-1-shop-1, g-1-shop-2, g-1-shop-3: add \{"g-1-shop-1": \{"apiKey": "\.\.\."\}\}/,
    );
    expect(existsSync(join(box.backendDir, ".pulumi"))).toBe(false);
    expect(sim.requests()).toEqual([]);
  });
});

describe("examples/fleet: 4 stacks x 3 shops, concurrency 2, against the simulator", () => {
  it("up, a no-op up, preview, a failing group, destroy", async () => {
    const box = sandbox("fleet");
    const fleetFile = join(box.root, "fleet.yaml");
    writeFileSync(fleetFile, fleetYaml(sim.baseUrl, 1));
    sim.reset();

    // 1. up: every hook of every shop, each group in a stack of its own, at most 2 stacks at once.
    const up = await fleetCli(box, fleetArgs(box, "up"), { SHIPPING_SHOPS: shopsEnv() });
    expect(up.status, up.stdout + up.stderr).toBe(0);
    for (const group of GROUPS) {
      const lines = linesOf(up, group);
      expect(lines[0]).toBe(`[${group}] up started: 3 shops, 9 hooks`);
      expect(lines[1]).toMatch(new RegExp(`^\\[${group}\\] up done in [\\d.]+ s: create 10$`));
      expect(subscriptionUrns(box, group)).toEqual(expectedUrns(group));
    }
    expect(mostInFlight(up)).toBe(CONCURRENCY);
    expect(up.stdout).toMatch(
      /fleet up: 4 stacks in [\d.]+ s \(concurrency 2\): 4 done, 0 failed, 0 skipped/,
    );
    for (const shop of ALL_SHOPS) expect(live(shop)).toEqual(declared(shop, 1));
    const idsAfterUp = new Map(ALL_SHOPS.map((shop) => [shop, sim.subscriptions(shop).map((s) => s.id)]));

    // 2. up again: nothing to do, and not one API write.
    sim.clearRequests();
    const again = await fleetCli(box, fleetArgs(box, "up"), { SHIPPING_SHOPS: shopsEnv() });
    expect(again.status, again.stdout + again.stderr).toBe(0);
    for (const group of GROUPS) {
      expect(linesOf(again, group)[1]).toMatch(new RegExp(`^\\[${group}\\] up done in [\\d.]+ s: same 10$`));
    }
    expect(sim.requests().filter((r) => r.method !== "GET")).toEqual([]);
    for (const shop of ALL_SHOPS)
      expect(sim.subscriptions(shop).map((s) => s.id)).toEqual(idsAfterUp.get(shop));

    // 3. preview of a change of every URL: each stack shows its replacements, and nothing is written.
    writeFileSync(fleetFile, fleetYaml(sim.baseUrl, 2));
    const preview = await fleetCli(box, fleetArgs(box, "preview"), { SHIPPING_SHOPS: shopsEnv() });
    expect(preview.status, preview.stdout + preview.stderr).toBe(0);
    for (const group of GROUPS) {
      expect(linesOf(preview, group)[1]).toMatch(
        new RegExp(`^\\[${group}\\] preview done in [\\d.]+ s: replace 9, same 1$`),
      );
    }
    expect(sim.requests().filter((r) => r.method !== "GET")).toEqual([]);
    for (const shop of ALL_SHOPS) expect(live(shop)).toEqual(declared(shop, 1));

    // 4. up of that change, and g-3's shops have a key the API refuses: only g-3 fails, the run exits 1.
    sim.clearRequests();
    const broken = await fleetCli(box, fleetArgs(box, "up"), { SHIPPING_SHOPS: shopsEnv("g-3") });
    expect(broken.status, broken.stdout + broken.stderr).toBe(1);
    const failure = linesOf(broken, "g-3")[1] ?? "";
    expect(failure).toMatch(
      /^\[g-3\] up FAILED after [\d.]+ s: g-3-shop-\d-\w+: Request failed with status code 401 Unauthorized.*hint: check the API key/,
    );
    expect(failure).toContain(join(box.workDir, "g-3", "up.log"));
    for (const group of ["g-1", "g-2", "g-4"]) {
      expect(linesOf(broken, group)[1]).toMatch(
        new RegExp(`^\\[${group}\\] up done in [\\d.]+ s: replace 9, same 1$`),
      );
      for (const shop of shopsOf(group)) expect(live(shop)).toEqual(declared(shop, 2));
    }
    for (const shop of shopsOf("g-3"))
      expect(sim.subscriptions(shop).map((s) => s.id)).toEqual(idsAfterUp.get(shop));
    expect(
      sim.requests().filter((r) => r.method !== "GET" && r.shop !== undefined && r.shop.startsWith("g-3-")),
    ).toEqual([]);
    expect(broken.stdout).toMatch(
      /fleet up: 4 stacks in [\d.]+ s \(concurrency 2\): 3 done, 1 failed, 0 skipped/,
    );
    expect(broken.stdout).toContain("failed: g-3 ");

    // 5. destroy: every subscription of every shop is gone, and so is every resource of every stack.
    const destroy = await fleetCli(box, fleetArgs(box, "destroy"), { SHIPPING_SHOPS: shopsEnv() });
    expect(destroy.status, destroy.stdout + destroy.stderr).toBe(0);
    for (const group of GROUPS) {
      expect(linesOf(destroy, group)[1]).toMatch(
        new RegExp(`^\\[${group}\\] destroy done in [\\d.]+ s: delete 10$`),
      );
      expect(subscriptionUrns(box, group)).toEqual([]);
    }
    for (const shop of ALL_SHOPS) expect(sim.subscriptions(shop)).toEqual([]);

    // No key in anything printed, in any log, or at rest in the backend; no lock left behind.
    const printed = [up, again, preview, broken, destroy].map((run) => run.stdout + run.stderr).join("\n");
    expect(keysIn(printed)).toEqual([]);
    for (const dir of [box.workDir, box.backendDir]) {
      for (const file of readdirSync(dir, { recursive: true, withFileTypes: true })) {
        if (file.isFile())
          expect(keysIn(readFileSync(join(file.parentPath, file.name), "latin1"))).toEqual([]);
      }
    }
    const locks = readdirSync(join(box.backendDir, ".pulumi", "locks"), {
      recursive: true,
      withFileTypes: true,
    });
    expect(locks.filter((entry) => entry.isFile())).toEqual([]);
  });
});
