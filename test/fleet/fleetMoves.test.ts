/**
 * Issue 26 item 4: how examples/fleet plans a shop's move between groups from a stack's state and the fleet
 * file, and what it prints. The engine side (adoption, exclusion, `pulumi state delete`) is in
 * test/fleet/fleetMove.e2e.test.ts.
 */
import type { Deployment } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import type { Fleet } from "../../examples/fleet/fleet";
import { excludedUrns, movesOutOf, recordedSubscriptions } from "../../examples/fleet/moves";
import { formatProgress, formatSummary } from "../../examples/fleet/progress";

const TYPE = "pulumi-nodejs:dynamic/shipping:WebhookSubscription";
const urn = (stack: string, name: string) => `urn:pulumi:${stack}::p::${TYPE}::${name}`;
const ALL = ["shipment_status_change", "shipment_label_created", "order_status_change"] as const;

/** A fleet: g-1 holds stay, g-2 holds mover (all hooks) and trimmed (only order_status_change). */
const FLEET: Fleet = {
  project: "p",
  groups: [
    {
      stack: "g-1",
      shops: [{ name: "stay", hooks: ALL.map((hook) => ({ hook, url: "https://h.example/x" })) }],
    },
    {
      stack: "g-2",
      shops: [
        { name: "mover", hooks: ALL.map((hook) => ({ hook, url: "https://h.example/x" })) },
        { name: "trimmed", hooks: [{ hook: "order_status_change", url: "https://h.example/x" }] },
      ],
    },
  ],
};

/** g-1's state before the move: every hook of stay, mover, trimmed and gone (a shop in no group). */
function g1State(): Deployment {
  let id = 0;
  const resources = ["stay", "trimmed", "mover", "gone"].flatMap((shop) =>
    [...ALL].reverse().map((hook) => ({
      urn: urn("g-1", `${shop}-${hook}`),
      type: TYPE,
      outputs: { shop, hook, url: "https://h.example/x", subscriptionId: ++id },
    })),
  );
  resources.push({
    urn: "urn:pulumi:g-1::p::pulumi:pulumi:Stack::p-g-1",
    type: "pulumi:pulumi:Stack",
  } as never);
  resources.push({ ...(resources[0] as (typeof resources)[0]), delete: true } as never);
  return { version: 3, deployment: { resources } };
}

describe("examples/fleet: planning a move", () => {
  it("finds the shops a stack records that the fleet file puts elsewhere, hook by hook", () => {
    const recorded = recordedSubscriptions(g1State());
    expect(recorded).toHaveLength(12);
    const moves = movesOutOf("g-1", recorded, FLEET);
    expect(moves.map((m) => [m.shop, m.from, m.to])).toEqual([
      ["mover", "g-1", "g-2"],
      ["trimmed", "g-1", "g-2"],
    ]);
    const [mover, trimmed] = moves;
    // In the new group's order of hooks; the hooks the new group drops are not moved.
    expect(mover?.moving.map((r) => r.hook)).toEqual([...ALL]);
    expect(mover?.moving.map((r) => r.id)).toEqual(["9", "8", "7"]);
    expect(mover?.dropped).toEqual([]);
    expect(trimmed?.moving.map((r) => r.id)).toEqual(["4"]);
    expect(trimmed?.dropped.map((r) => r.hook)).toEqual(["shipment_label_created", "shipment_status_change"]);
    expect(excludedUrns(moves)).toEqual([
      ...ALL.map((hook) => urn("g-1", `mover-${hook}`)),
      urn("g-1", "trimmed-order_status_change"),
    ]);
    expect(movesOutOf("g-2", recorded, FLEET).map((m) => m.shop)).toEqual(["stay"]);
    expect(recordedSubscriptions(undefined)).toEqual([]);
  });

  it("prints what moves, what waits and what failed, with the ids and the way on", () => {
    const [mover, trimmed] = movesOutOf("g-1", recordedSubscriptions(g1State()), FLEET);
    const moving = formatProgress({
      kind: "moving",
      stack: "g-1",
      operation: "up",
      moves: [mover, trimmed].filter((m) => m !== undefined),
    }).split("\n");
    expect(moving).toEqual([
      "[g-1] up: shop mover moves to g-2: g-1 leaves subscriptions 9, 8, 7 out of this up (never deletes them) and forgets them once g-2's stack records them",
      "[g-1] up: shop trimmed moves to g-2: g-1 leaves subscription 4 out of this up (never deletes it) and forgets it once g-2's stack records it; g-2 does not declare shipment_label_created (subscription 5), shipment_status_change (subscription 6): this up deletes them, as of any removed hook",
    ]);
    const base = { shop: "mover", from: "g-1", to: "g-2" } as const;
    const line = (move: Parameters<typeof formatSummary>[0]["moves"][number]) =>
      formatProgress({ kind: "move", stack: "g-1", operation: "up", move });
    expect(line({ ...base, status: "moved", forgotten: ["9", "8", "7"], waiting: [] })).toBe(
      "[g-1] moved shop mover to g-2: subscriptions 9, 8, 7 stay live, now recorded by g-2's stack only (g-1's stack forgot them, nothing deleted)",
    );
    expect(line({ ...base, status: "waiting", forgotten: [], waiting: ["order_status_change"] })).toBe(
      "[g-1] shop mover not moved yet: g-2's stack does not record order_status_change yet, so g-1's stack keeps it (live, never deleted by g-1) until an up of g-2 records it and g-1 runs again",
    );
    expect(
      line({ ...base, status: "failed", forgotten: [], waiting: ["order_status_change"], error: "locked" }),
    ).toBe(
      "[g-1] moving shop mover to g-2 FAILED: locked; nothing was deleted, and g-1's stack still records order_status_change: run up again",
    );
    const summary = formatSummary({
      operation: "up",
      concurrency: 2,
      ms: 1000,
      stacks: [{ stack: "g-1", status: "done", ms: 900, changes: { same: 4 } }],
      moves: [
        { ...base, status: "moved", forgotten: ["9"], waiting: [] },
        { ...base, shop: "trimmed", status: "waiting", forgotten: [], waiting: ["order_status_change"] },
      ],
      failed: [],
    });
    expect(summary.split("\n").slice(1)).toEqual([
      "moved: mover (g-1 -> g-2)",
      "not moved yet (up of the new group, then of the old): trimmed (g-1 -> g-2)",
    ]);
  });
});
