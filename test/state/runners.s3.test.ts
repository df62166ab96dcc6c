/**
 * Issue 16: two CI runners, one stack in an S3 bucket (versitygw). Each runner is its own process with its
 * own checkout of the GitOps repository and its own PULUMI_HOME, as two machines would be. The Pulumi S3
 * backend's lock (an object per update under `.pulumi/locks/`) is what keeps them apart.
 */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { useAcmeSimulator } from "../support/acmeSimulator";
import type { Declaration } from "../support/engine";
import { invariantViolations } from "../support/invariants";
import { useS3Server } from "../support/versitygw";
import { descendantsOf, sharedGitopsStack } from "./runners";

/** What examples/gitops/Pulumi.production.yaml declares. */
const DECLARED: Declaration[] = [
  {
    name: "shipment_status_change",
    hook: "shipment_status_change",
    url: "https://hooks.example.com/shop/shipments",
  },
  {
    name: "shipment_label_created",
    hook: "shipment_label_created",
    url: "https://hooks.example.com/shop/labels",
  },
  { name: "order_status_change", hook: "order_status_change", url: "https://hooks.example.com/shop/orders" },
];
/** The stack and the three subscriptions (the default provider is not counted). */
const RESOURCES = 4;
/** Extra time each POST of the winning runner takes, so that the other runner's attempt overlaps it. */
const HOLD_MS = 2_000;
/** Races per run: 1 in `npm test`; `npm run test:lock-race` runs more and prints how they ended. */
const RACE_ROUNDS = Number(process.env.LOCK_RACE_ROUNDS ?? 1);
if (!Number.isInteger(RACE_ROUNDS) || RACE_ROUNDS < 1 || RACE_ROUNDS > 100) {
  throw new Error(`LOCK_RACE_ROUNDS must be an integer from 1 to 100, not ${process.env.LOCK_RACE_ROUNDS}`);
}
/** How long to wait for the first runner to reach the middle of its update. */
const MID_UP_DEADLINE_MS = 120_000;
const LOCKED =
  /the stack is currently locked by 1 lock\(s\)\. Either wait for the other process\(es\) to end or delete the lock file with `pulumi cancel`\./;

/** The simulator of this file, reset before each test. */
const acme = useAcmeSimulator();
/** The S3 server whose bucket holds the stacks' state. */
const s3 = useS3Server();

/** Whether process `pid` still runs (a zombie, dead but not reaped, counts as gone). */
function isAlive(pid: number): boolean {
  try {
    return !/^Z/.test(execFileSync("ps", ["-o", "stat=", "-p", String(pid)], { encoding: "utf8" }).trim());
  } catch {
    return false;
  }
}

const writes = () => acme.sim.requests().filter((r) => r.method === "POST" || r.method === "DELETE");
/** Successful POSTs per hook: each subscription written once means nothing was created twice. */
function postsPerHook(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of acme.sim.requests()) {
    if (r.method !== "POST" || r.status !== 200) continue;
    const items = (r.body as { data?: { webhook_subscriptions?: Array<{ hook: string }> } }).data
      ?.webhook_subscriptions;
    for (const { hook } of items ?? []) counts[hook] = (counts[hook] ?? 0) + 1;
  }
  return counts;
}
const ONCE_EACH = Object.fromEntries(DECLARED.map((d) => [d.hook, 1]));

describe("two runners, one stack in the bucket", () => {
  it(`\`up\` at the same moment (${RACE_ROUNDS} round(s)): one runs, the other fails with the lock message, nothing twice; the next run is clean`, async () => {
    const tally = { "one ran": 0, "neither ran (tie)": 0 };
    for (let round = 0; round < RACE_ROUNDS; round++) {
      acme.sim.reset();
      const shared = await sharedGitopsStack(acme.sim, s3.server, `race-${round}`);
      const [a, b] = [shared.runner("a"), shared.runner("b")];
      acme.sim.addFault({ kind: "latency", ms: HOLD_MS, method: "POST" });
      const outcomes = await Promise.all([a.start("up").done, b.start("up").done]);
      acme.sim.clearFaults();
      const everything = outcomes.map((o) => o.output).join("\n-----\n");

      // Never both; whoever did not run was refused by the lock, before any API call.
      const ran = outcomes.filter((o) => o.ok);
      expect(ran.length, everything).toBeLessThanOrEqual(1);
      for (const refused of outcomes.filter((o) => !o.ok)) expect(refused.output).toMatch(LOCKED);
      expect(await shared.locks()).toEqual([]);
      if (ran.length === 1) {
        tally["one ran"]++;
        expect(ran[0]?.changes).toEqual({ create: RESOURCES });
      } else {
        // The S3 lock is write-then-check: two runners whose checks interleave both see the other's lock
        // and both back off. Nothing ran, so the next run deploys.
        tally["neither ran (tie)"]++;
        expect(acme.sim.requests()).toEqual([]);
        expect((await b.run("up")).changes).toEqual({ create: RESOURCES });
      }
      expect(postsPerHook()).toEqual(ONCE_EACH);
      expect(invariantViolations(DECLARED, await shared.state(), acme.sim.subscriptions("acme"))).toEqual([]);

      // The next run, from the other checkout: nothing to do, nothing written.
      acme.sim.clearRequests();
      const next = await a.run("up");
      expect(next.ok, next.output).toBe(true);
      expect(next.changes).toEqual({ same: RESOURCES });
      expect(writes()).toEqual([]);
    }
    console.log(
      [
        "| rounds | one ran | neither ran (tie) | both ran |",
        "|---|---|---|---|",
        `| ${RACE_ROUNDS} | ${tally["one ran"]} | ${tally["neither ran (tie)"]} | 0 |`,
      ].join("\n"),
    );
  });

  it("the first runner killed -9 mid-`up`: the second sees the lock; `pulumi cancel` and refresh recover it", async () => {
    acme.sim.reset();
    const shared = await sharedGitopsStack(acme.sim, s3.server, "killed");
    const [a, b] = [shared.runner("a"), shared.runner("b")];
    // One create hangs (the API never answers it), so runner A is caught in the middle of its update.
    acme.sim.addFault({ kind: "stall", ms: MID_UP_DEADLINE_MS, method: "POST", count: 1 });
    const first = a.start("up");
    const deadline = Date.now() + MID_UP_DEADLINE_MS;
    const posts = () => acme.sim.requests().filter((r) => r.method === "POST");
    // Mid-up: a create is in flight (the provider writes one shop's hooks one at a time, so the others wait).
    while (!posts().some((r) => r.status === 0)) {
      if (Date.now() > deadline)
        throw new Error(`runner A never reached mid-up:\n${JSON.stringify(posts())}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const tree = [first.child.pid as number, ...descendantsOf(first.child.pid as number)];
    first.kill();
    const killed = await first.done;
    expect(killed.signal).toBe("SIGKILL");
    expect(tree.length).toBeGreaterThanOrEqual(3); // the runner, the CLI, the provider (at least)
    const alive = () => tree.filter(isAlive);
    const gone = Date.now() + MID_UP_DEADLINE_MS;
    while (alive().length > 0 && Date.now() < gone) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(alive()).toEqual([]);
    acme.sim.clearFaults();
    expect(await shared.locks()).toHaveLength(1); // the dead runner's lock stays in the bucket
    // The hanging create at least is recorded as pending: the engine saves that before it calls the provider.
    const pending = (await shared.state()).deployment as { pending_operations?: Array<{ type: string }> };
    expect(pending.pending_operations?.length).toBeGreaterThanOrEqual(1);
    expect(new Set(pending.pending_operations?.map((op) => op.type))).toEqual(new Set(["creating"]));

    // What runner B sees: the lock, who holds it, and what to do; it touches nothing.
    const requestsBefore = acme.sim.requests().length;
    const blocked = await b.run("up");
    expect(blocked.ok).toBe(false);
    expect(blocked.output).toMatch(LOCKED);
    expect(blocked.output).toMatch(
      /s3:\/\/pulumi-state\/killed\/\.pulumi\/locks\/organization\/webhooks\/production\/[0-9a-f-]+\.json\S*: created by \S+ \(pid \d+\) at /,
    );
    expect(acme.sim.requests().slice(requestsBefore)).toEqual([]);

    // The documented recovery: `pulumi cancel` removes the lock; `pulumi refresh --clear-pending-creates`
    // reads what the dead run recorded and forgets its unfinished creates (the next create of the same hook
    // takes over whatever reached the API, with no second POST); then `pulumi up`.
    expect((await b.run("cancel")).ok).toBe(true);
    expect(await shared.locks()).toEqual([]);
    const refresh = await b.run("refresh");
    expect(refresh.ok, refresh.output).toBe(true);
    const up = await b.run("up");
    expect(up.ok, up.output).toBe(true);
    expect(postsPerHook()).toEqual(ONCE_EACH); // the two written before the kill are not written again
    expect(invariantViolations(DECLARED, await shared.state(), acme.sim.subscriptions("acme"))).toEqual([]);

    expect(await shared.locks()).toEqual([]);
    // (That a run after a clean state changes nothing is shown by the race above.)
  });
});
