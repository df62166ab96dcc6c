/**
 * Issue 15 item 6, examples/fleet before anything deploys: every problem of a fleet file reported with its
 * path, shops split into near-equal groups, a pool that never runs more than K at once, and the command line
 * (run as a user runs it) exiting 2 on a bad fleet file or a missing passphrase and failing only the stack
 * whose shops have no key: nothing is deployed, the API sees no request. The fleet's run of up, preview and
 * destroy is fleet.lifecycle.test.ts.
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as fleetModule from "../../examples/fleet/fleet";
import type * as poolModule from "../../examples/fleet/pool";
import { type RunningSimulator, startSimulator } from "../../simulator";
import { dist, sandbox } from "../support/engine";
import { ALL_SHOPS, fleetArgs, fleetCli, fleetYaml, keyOf, linesOf, SEEDS, shopsEnv } from "../support/fleet";

const fleetLib = dist.module("examples/fleet/fleet.js") as typeof fleetModule;
const pool = dist.module("examples/fleet/pool.js") as typeof poolModule;

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
