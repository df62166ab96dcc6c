/**
 * Issue 26 item 4: moving shops between groups of examples/fleet with one edit of the fleet file and one `up`
 * of the fleet, through the runner's command line. Three shops move in one edit (two from g-1 to g-2, one of
 * them keeping only two of its three hooks; one from g-2 to g-1, so the moves cross). Judged by the
 * simulator (no write to a moved hook's subscription, every moved hook subscribed at every poll, the hook
 * the new group drops deleted) and by both stacks' state (each moved subscription recorded only in its new
 * group's stack, with the id it had). The move's `up` runs with `--refresh`, as the CI workflow does. Engine
 * calls: two `up`s of two stacks (on the unfixed runner, the second fails: "entry is gone").
 */
import { readFileSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOOKS } from "../../provider/inputs/hooks";
import { type RunningSimulator, startSimulator } from "../../simulator";
import { dist, REPO_ROOT, type Sandbox, sandbox } from "../support/engine";
import { type ProcessResult, runProcess } from "../support/process";
import { secretForms } from "../support/shops";

const CLI = join(REPO_ROOT, "dist", "examples", "fleet", "cli.js");
const PROJECT = "fleet-move-test";
/** One run of the command line (two stacks at once on a loaded 2-core machine); finite, so nothing hangs. */
const RUN_DEADLINE_MS = 240_000;
/** How often the moved hooks are checked while the move runs, and at most how many checks. */
const POLL_MS = 20;
const MAX_POLLS = 20_000;

const SHOPS = ["stay-1", "mover", "trimmed", "back", "stay-2"];
const keyOf = (shop: string) => `fleet-move-test-key-${shop}`;
const urlOf = (shop: string, hook: string) => `https://hooks.example.com/${shop}/${hook}`;
/** The hook `trimmed` loses in its new group. */
const DROPPED = "shipment_label_created";
const KEPT_BY_TRIMMED = HOOKS.filter((hook) => hook !== DROPPED);

function fleetYaml(baseUrl: string, groups: readonly string[]): string {
  const hooks = HOOKS.map((hook) => `  ${hook}: https://hooks.example.com/{shop}/${hook}`);
  return [`project: ${PROJECT}`, `baseUrl: ${baseUrl}`, "hooks:", ...hooks, "groups:", ...groups, ""].join(
    "\n",
  );
}
const BEFORE = ["  g-1: [stay-1, mover, trimmed]", "  g-2: [back, stay-2]"];
const AFTER = [
  "  g-1: [stay-1, back]",
  "  g-2:",
  "    stay-2:",
  "    mover:",
  "    trimmed:",
  ...KEPT_BY_TRIMMED.map((hook) => `      ${hook}: ${urlOf("trimmed", hook)}`),
];
/** Where each shop's hooks are declared after the move. */
const DECLARED_AFTER: Record<string, { group: string; hooks: readonly string[] }> = {
  "stay-1": { group: "g-1", hooks: HOOKS },
  back: { group: "g-1", hooks: HOOKS },
  "stay-2": { group: "g-2", hooks: HOOKS },
  mover: { group: "g-2", hooks: HOOKS },
  trimmed: { group: "g-2", hooks: KEPT_BY_TRIMMED },
};
const MOVED = ["mover", "trimmed", "back"];

function fleetCli(box: Sandbox, args: readonly string[]): Promise<ProcessResult> {
  const cliBin = join(dist.pulumiCli.pulumiCliRoot(), "bin");
  const shops = Object.fromEntries(SHOPS.map((shop) => [shop, { apiKey: keyOf(shop) }]));
  return runProcess(
    process.execPath,
    [
      CLI,
      ...args,
      "--fleet",
      join(box.root, "fleet.yaml"),
      "--concurrency",
      "2",
      "--backend",
      `file://${box.backendDir}`,
      "--work-dir",
      box.workDir,
    ],
    {
      cwd: box.root,
      env: {
        ...process.env,
        PATH: `${cliBin}${delimiter}${process.env.PATH ?? ""}`,
        PULUMI_HOME: box.pulumiHome,
        PULUMI_CONFIG_PASSPHRASE: "fleet-move-test-passphrase",
        PULUMI_DIY_BACKEND_NO_LEGACY_WARNING: "true",
        SHIPPING_SHOPS: JSON.stringify(shops),
        SHIPPING_API_KEY: "",
        PULUMI_BACKEND_URL: "",
      },
      deadlineMs: RUN_DEADLINE_MS,
    },
  );
}

/** The subscriptions one stack's state records, as `<shop>/<hook>` -> subscription id. */
function recorded(box: Sandbox, stack: string): Record<string, number> {
  const file = join(box.backendDir, ".pulumi", "stacks", PROJECT, `${stack}.json`);
  const state = JSON.parse(readFileSync(file, "utf8")) as {
    checkpoint: {
      latest?: { resources?: Array<{ type: string; outputs?: Record<string, unknown> }> };
    };
  };
  return Object.fromEntries(
    (state.checkpoint.latest?.resources ?? [])
      .filter((r) => r.type.endsWith(":WebhookSubscription"))
      .map((r) => [`${r.outputs?.shop}/${r.outputs?.hook}`, r.outputs?.subscriptionId as number]),
  );
}

/** The live subscriptions of a shop as `<shop>/<hook>` -> id, with the URL checked against the fleet file. */
function live(shop: string): Record<string, number> {
  const subscriptions = sim.subscriptions(shop);
  for (const s of subscriptions) expect(s.url).toBe(urlOf(shop, s.hook));
  return Object.fromEntries(subscriptions.map((s) => [`${shop}/${s.hook}`, s.id]));
}

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ shops: SHOPS.map((name) => ({ name, keys: { readWrite: [keyOf(name)] } })) });
});
afterAll(() => sim.close());

describe("examples/fleet: moving shops between groups", () => {
  it("a shop listed in two groups is refused before anything runs, with the way to move it", async () => {
    const box = sandbox("fleet-move-twice");
    writeFileSync(join(box.root, "fleet.yaml"), fleetYaml(sim.baseUrl, [...BEFORE, "  g-3: [mover]"]));
    sim.clearRequests();
    const run = await fleetCli(box, ["up"]);
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(
      /groups\.g-3\.mover: already in group g-1; a shop belongs to exactly one group\. To move it, list it only under its new group/,
    );
    expect(sim.requests()).toEqual([]);
  });

  it("one edit and one up: the moved subscriptions stay live, untouched, recorded only in their new group's stack", async () => {
    const box = sandbox("fleet-move");
    writeFileSync(join(box.root, "fleet.yaml"), fleetYaml(sim.baseUrl, BEFORE));
    const first = await fleetCli(box, ["up"]);
    expect(first.status, first.stdout + first.stderr).toBe(0);
    const before = Object.assign({}, ...SHOPS.map(live)) as Record<string, number>;
    expect(Object.keys(before)).toHaveLength(SHOPS.length * HOOKS.length);

    // One edit of the fleet file, one up of the fleet, the moved hooks watched all along.
    writeFileSync(join(box.root, "fleet.yaml"), fleetYaml(sim.baseUrl, AFTER));
    sim.clearRequests();
    const unsubscribed = new Set<string>();
    let polls = 0;
    const watch = setInterval(() => {
      if (++polls > MAX_POLLS) return clearInterval(watch);
      for (const shop of MOVED) {
        const now = sim.subscriptions(shop);
        for (const hook of DECLARED_AFTER[shop]?.hooks ?? []) {
          if (!now.some((s) => s.hook === hook && s.url === urlOf(shop, hook)))
            unsubscribed.add(`${shop}/${hook}`);
        }
      }
    }, POLL_MS);
    const move = await fleetCli(box, ["up", "--refresh"]).finally(() => clearInterval(watch));
    expect(move.status, move.stdout + move.stderr).toBe(0);
    expect(polls).toBeGreaterThan(10);
    expect([...unsubscribed]).toEqual([]);

    // The progress says what moved, and that nothing was unsubscribed.
    const idsOf = (shop: string, hooks: readonly string[]) =>
      hooks.map((hook) => before[`${shop}/${hook}`]).join(", ");
    expect(move.stdout).toContain(
      `[g-1] moved shop mover to g-2: subscriptions ${idsOf("mover", HOOKS)} stay live, now recorded by g-2's stack only (g-1's stack forgot them, nothing deleted)`,
    );
    expect(move.stdout).toContain(
      `[g-1] moved shop trimmed to g-2: subscriptions ${idsOf("trimmed", KEPT_BY_TRIMMED)} stay live`,
    );
    expect(move.stdout).toContain(
      `[g-2] moved shop back to g-1: subscriptions ${idsOf("back", HOOKS)} stay live`,
    );
    expect(move.stdout).toMatch(
      /fleet up: 2 stacks in [\d.]+ s \(concurrency 2\): 2 done, 0 failed, 0 skipped/,
    );
    expect(move.stdout).toContain("moved: mover (g-1 -> g-2), trimmed (g-1 -> g-2), back (g-2 -> g-1)");

    // The service: the moved hooks were never written; the hook trimmed's new group drops is deleted.
    const writes = sim.requests().filter((r) => r.method !== "GET");
    expect(writes.filter((r) => r.shop !== "trimmed")).toEqual([]);
    expect(writes.filter((r) => r.shop === "trimmed").map((r) => `${r.method} ${r.path}`)).toEqual([
      `DELETE /webhook_subscriptions/${before[`trimmed/${DROPPED}`]}`,
    ]);
    const after = Object.assign({}, ...SHOPS.map(live)) as Record<string, number>;
    const expected = { ...before };
    delete expected[`trimmed/${DROPPED}`];
    expect(after).toEqual(expected);

    // The state: every subscription recorded by exactly the stack of its shop's group, with its live id.
    for (const group of ["g-1", "g-2"]) {
      const want = Object.fromEntries(
        Object.entries(expected).filter(
          ([name]) => DECLARED_AFTER[name.split("/")[0] as string]?.group === group,
        ),
      );
      expect(recorded(box, group), group).toEqual(want);
    }

    // No key in what the runner printed.
    const printed = first.stdout + first.stderr + move.stdout + move.stderr;
    expect(
      SHOPS.map(keyOf)
        .flatMap(secretForms)
        .filter((form) => printed.includes(form)),
    ).toEqual([]);
  });
});
