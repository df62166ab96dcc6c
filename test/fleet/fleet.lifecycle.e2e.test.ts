/**
 * Issue 15 item 6, beyond one stack: examples/fleet runs one Pulumi stack per group of shops, a bounded
 * number at once, through its command line as a user (or a CI job) runs it: the compiled runner, the Pulumi
 * CLI from PATH, keys only in SHIPPING_SHOPS. 4 groups x 3 shops x 3 hooks against the simulator, concurrency
 * 2: every hook subscribed, each stack holds only its own shops, a second up writes nothing, a preview shows
 * each stack's changes and writes nothing, a bad key fails only its group (exit status 1, the others deploy),
 * destroy removes everything, and no key or lock is left anywhere. The fleet file, the pool and the refusals
 * before a deploy are fleet.fileAndPool.test.ts.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOOKS } from "../../provider/inputs/hooks";
import { type RunningSimulator, startSimulator } from "../../simulator";
import { type Sandbox, sandbox } from "../support/engine";
import {
  ALL_SHOPS,
  badKeyOf,
  CONCURRENCY,
  fleetArgs,
  fleetCli,
  fleetYaml,
  GROUPS,
  keyOf,
  linesOf,
  PROJECT,
  SEEDS,
  shopsEnv,
  shopsOf,
  urlOf,
} from "../support/fleet";
import type { ProcessResult } from "../support/process";
import { secretForms } from "../support/shops";

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
