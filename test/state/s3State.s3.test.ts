/**
 * Issue 16: state on a real S3-compatible server. The Pulumi CLI's `s3://` backend against versitygw on
 * loopback (path-style, plain HTTP): the whole lifecycle and secrets at rest (every object of the bucket
 * listed and read through the S3 API). The GitOps example's program runs on the same backend, from
 * PULUMI_BACKEND_URL as its workflow sets it, in test/state/runners.s3.test.ts.
 */
import type { ConfigMap, PulumiFn, Stack } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import { useAcmeSimulator } from "../support/acmeSimulator";
import {
  type Declaration,
  declarationsProgram,
  dist,
  engine,
  type Sandbox,
  sandbox,
  subscriptionResources,
} from "../support/engine";
import { ACME_KEY, acmeStackConfig, leaksOf } from "../support/shops";
import { useS3Server } from "../support/versitygw";

const ORDERS = "order_status_change";
const LABELS = "shipment_label_created";

/** The simulator of this file, reset before each test. */
const acme = useAcmeSimulator();
/** The S3 server whose bucket holds the stacks' state. */
const s3 = useS3Server();

/** A stack of `program` whose state lives under `prefix` in the bucket. */
function s3Stack(box: Sandbox, prefix: string, program: PulumiFn, config: ConfigMap): Promise<Stack> {
  return dist.stacks.openStack({
    workDir: box.workDir,
    backendUrl: s3.server.backendUrl(prefix),
    projectName: "e2e",
    stackName: "test",
    program,
    config,
    env: { PULUMI_HOME: box.pulumiHome, ...s3.server.awsEnv() },
  });
}

/** Every object under `prefix`, key -> content. */
async function objectsUnder(prefix: string): Promise<Map<string, string>> {
  const all = await s3.server.client.readAll(s3.server.bucket);
  return new Map(all.filter((o) => o.key.startsWith(`${prefix}/`)).map((o) => [o.key, o.text]));
}

/** The shop's subscriptions as hook and URL, by hook. */
const live = () =>
  acme.sim
    .subscriptions("acme")
    .map(({ hook, url }) => ({ hook, url }))
    .sort((x, y) => x.hook.localeCompare(y.hook));

describe("state in an S3 bucket (versitygw)", () => {
  it("up, a settled preview, refresh, a URL change and destroy; previews write nothing; no lock is left", async () => {
    acme.sim.reset();
    const box = sandbox("s3-lifecycle");
    let declared: Declaration[] = [
      { name: "orders", hook: ORDERS, url: "https://hooks.example.com/o" },
      { name: "labels", hook: LABELS, url: "https://hooks.example.com/l" },
    ];
    const stack = await s3Stack(
      box,
      "lifecycle",
      declarationsProgram(() => declared),
      acmeStackConfig(acme.sim.baseUrl),
    );

    const up = await engine(stack.up(), "up");
    expect(up.summary.resourceChanges).toEqual({ create: 3 }); // the stack and two subscriptions
    expect(live()).toEqual([
      { hook: ORDERS, url: "https://hooks.example.com/o" },
      { hook: LABELS, url: "https://hooks.example.com/l" },
    ]);
    const afterUp = await objectsUnder("lifecycle");
    const checkpoint = afterUp.get("lifecycle/.pulumi/stacks/e2e/test.json");
    expect(checkpoint, `stack file in the bucket; keys: ${[...afterUp.keys()]}`).toBeDefined();
    const ids = subscriptionResources({
      version: 3,
      deployment: JSON.parse(checkpoint ?? "{}").checkpoint.latest,
    })
      .map((r) => r.outputs.subscriptionId)
      .sort();
    expect(ids).toEqual(
      acme.sim
        .subscriptions("acme")
        .map((s) => s.id)
        .sort(),
    );

    // Settled: nothing to do, with and without refresh; a preview writes no object (read access suffices).
    acme.sim.clearRequests();
    const preview = await engine(stack.preview(), "preview");
    expect(preview.changeSummary).toEqual({ same: 3 });
    const refreshed = await engine(stack.preview({ refresh: true }), "preview --refresh");
    expect(refreshed.changeSummary).toEqual({ same: 3 });
    expect(await objectsUnder("lifecycle")).toEqual(afterUp);
    expect(acme.sim.requests().filter((r) => r.method !== "GET")).toEqual([]);

    const refresh = await engine(stack.refresh(), "refresh");
    expect(refresh.summary.resourceChanges).toEqual({ same: 3 });

    declared = [
      { ...(declared[0] as Declaration), url: "https://hooks.example.com/o-v2" },
      declared[1] as Declaration,
    ];
    const change = await engine(stack.up(), "up (URL change)");
    expect(change.summary.resourceChanges).toEqual({ replace: 1, same: 2 });
    expect(live()).toEqual([
      { hook: ORDERS, url: "https://hooks.example.com/o-v2" },
      { hook: LABELS, url: "https://hooks.example.com/l" },
    ]);

    const destroy = await engine(stack.destroy(), "destroy");
    expect(destroy.summary.resourceChanges).toEqual({ delete: 3 });
    expect(live()).toEqual([]);

    const objects = await objectsUnder("lifecycle");
    expect([...objects.keys()].filter((key) => key.includes("/.pulumi/locks/"))).toEqual([]);
    // Secrets at rest: every object (checkpoint, backups, history) read back through the S3 API.
    expect(
      [...objects.keys()].filter((key) => key.includes("/.pulumi/history/")).length,
    ).toBeGreaterThanOrEqual(5);
    const leaks = [...objects].flatMap(([key, text]) =>
      leaksOf(ACME_KEY, text).map((form) => `${key}: ${form}`),
    );
    expect(leaks).toEqual([]);
    expect([...objects.values()].some((text) => text.includes("shipping:apiKey"))).toBe(true); // it is there, encrypted
  });
});
