import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Stack } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import { useAcmeSimulator } from "../support/acmeSimulator";
import {
  type Declaration,
  declarationsProgram,
  dist,
  engine,
  OutputLog,
  REPO_ROOT,
  sandbox,
  stackIn,
} from "../support/engine";
import { ACME_KEY, leaksOf } from "../support/shops";

/** The simulator of this file, reset before each test. */
const acme = useAcmeSimulator();

const secretConfig = () => ({
  "shipping:apiKey": { value: ACME_KEY, secret: true },
  "shipping:baseUrl": { value: acme.sim.baseUrl },
});

/**
 * What a reviewer reads: `preview --diff` (the pull-request comment of examples/gitops) and the plain
 * preview's step lines (what the merge job's `pulumi up` log shows, with `[diff: ~property]` reasons).
 */
async function reviewOf(stack: Stack) {
  const diff = new OutputLog();
  const plain = new OutputLog();
  acme.sim.clearRequests();
  const result = await engine(stack.preview({ diff: true, onOutput: diff.onOutput }), "preview --diff");
  await engine(stack.preview({ onOutput: plain.onOutput }), "preview");
  // A preview writes nothing. It lists the shop once, in the program's process (for what it tells on each
  // resource: a refused key, a takeover, drift), which hands the listing to the provider (does the key still
  // reach the recorded shop?).
  const calls = acme.sim.requests().map((r) => `${r.method} ${r.path}`);
  expect(
    calls.filter((c) => c !== "GET /webhook_subscriptions/"),
    "a preview only lists",
  ).toEqual([]);
  expect(calls.length, "one listing per shop per preview, at most").toBeLessThanOrEqual(2);
  return { diff: diff.text, plain: plain.text, changes: result.changeSummary };
}

/** The `--diff` block of resource `name`: its header line and the property lines below it. */
function resourceBlock(diff: string, name: string): string {
  const blocks = diff.split(/\n(?= {4}\S)/);
  const block = blocks.find((b) => b.includes(`::${name}]`));
  if (block === undefined) throw new Error(`no block for ${name} in:\n${diff}`);
  return block;
}

/** A regular expression matching `text` literally. */
function literally(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/** A `--diff` property line: `~ url : "old" => "new"` (the engine pads the names into a column). */
function changedLine(property: string, from: string, to: string): RegExp {
  return new RegExp(`~ ${property}\\s*: ${literally(from)} => ${literally(to)}`);
}

describe("the preview a reviewer reads", () => {
  it("examples/gitops: a URL edited in Pulumi.production.yaml shows old, new and the replacement", async () => {
    const box = sandbox("review-gitops");
    for (const file of ["Pulumi.yaml", "Pulumi.production.yaml"]) {
      copyFileSync(join(REPO_ROOT, "examples/gitops", file), join(box.workDir, file));
    }
    const program = dist.program("examples/gitops/index.js");
    const stack = await dist.stacks.openStack({
      workDir: box.workDir,
      projectName: "webhooks",
      stackName: "production",
      program,
      config: secretConfig(),
      // As in the workflow: the backend comes from PULUMI_BACKEND_URL, not from Pulumi.yaml.
      env: { PULUMI_HOME: box.pulumiHome, PULUMI_BACKEND_URL: `file://${box.backendDir}` },
    });
    await engine(stack.up(), "up");
    expect(acme.sim.subscriptions("acme")).toHaveLength(3);

    // The pull request: one line of the stack file changes.
    const stackFile = join(box.workDir, "Pulumi.production.yaml");
    const before = "https://hooks.example.com/shop/orders";
    const after = "https://hooks.example.com/shop/orders-v2";
    writeFileSync(stackFile, readFileSync(stackFile, "utf8").replace(before, after));
    const review = await reviewOf(stack);

    expect(review.changes).toEqual({ replace: 1, same: 3 });
    const orders = resourceBlock(review.diff, "order_status_change");
    expect(orders).toMatch(/^ {4}\+-pulumi-nodejs:dynamic\/shipping:WebhookSubscription: \(replace\)/);
    expect(orders).toMatch(changedLine("url", `"${before}"`, `"${after}"`));
    expect(orders).toMatch(/ {8}hook\s*: "order_status_change"/); // unchanged, shown for context
    expect(review.diff).toMatch(/\+-1 to replace\n\s+3 unchanged/);
    expect(review.plain).toMatch(
      /\+- pulumi-nodejs:dynamic\/shipping:WebhookSubscription order_status_change replace \[diff: ~url\]/,
    );
    expect(review.plain).not.toMatch(/shipment_status_change (replace|create|delete)/);
    expect(leaksOf(ACME_KEY, review.diff + review.plain)).toEqual([]);

    await engine(stack.destroy(), "destroy");
    expect(acme.sim.subscriptions("acme")).toEqual([]);
  });

  it("a hook change: replacement, with the hook as its reason and the URL as context", async () => {
    const box = sandbox("review-hook");
    let declared: Declaration[] = [
      { name: "labels", hook: "shipment_label_created", url: "https://hooks.example.com/l" },
    ];
    const stack = await stackIn(
      box,
      declarationsProgram(() => declared),
      secretConfig(),
    );
    await engine(stack.up(), "up");
    declared = [{ name: "labels", hook: "shipment_status_change", url: "https://hooks.example.com/l" }];
    const review = await reviewOf(stack);

    expect(review.changes).toEqual({ replace: 1, same: 1 });
    const labels = resourceBlock(review.diff, "labels");
    expect(labels).toContain("(replace)");
    expect(labels).toMatch(changedLine("hook", '"shipment_label_created"', '"shipment_status_change"'));
    expect(labels).toMatch(/ {8}url\s*: "https:\/\/hooks\.example\.com\/l"/);
    // Create-before-delete, each step with its reason.
    for (const step of ["create replacement", "replace", "delete original"]) {
      expect(review.plain).toContain(`WebhookSubscription labels ${step} [diff: ~hook]`);
    }
    expect(leaksOf(ACME_KEY, review.diff + review.plain)).toEqual([]);
    await engine(stack.destroy(), "destroy");
  });

  it("a secret URL: the replacement shows, the URLs and the API key do not", async () => {
    const box = sandbox("review-secret");
    let declared: Declaration[] = [
      {
        name: "orders",
        hook: "order_status_change",
        url: "https://hooks.example.com/o?token=s3cr3t-one",
        secretUrl: true,
      },
    ];
    const stack = await stackIn(
      box,
      declarationsProgram(() => declared),
      secretConfig(),
    );
    await engine(stack.up(), "up");
    declared = [
      {
        name: "orders",
        hook: "order_status_change",
        url: "https://hooks.example.com/o?token=s3cr3t-two",
        secretUrl: true,
      },
    ];
    const review = await reviewOf(stack);

    expect(review.changes).toEqual({ replace: 1, same: 1 });
    const orders = resourceBlock(review.diff, "orders");
    expect(orders).toContain("(replace)");
    expect(orders).toMatch(/ {8}url\s*: \[secret\]/);
    // The engine prints no reason for a change of a secret value (both sides are [secret], and the summary
    // line has no [diff: ...]): the replacement itself is what the reviewer sees.
    expect(review.plain).toMatch(/\+- pulumi-nodejs:dynamic\/shipping:WebhookSubscription orders replace/);
    expect(review.diff).toMatch(/\+-1 to replace/);
    expect(review.diff + review.plain).not.toContain("s3cr3t");
    expect(leaksOf(ACME_KEY, review.diff + review.plain)).toEqual([]);
    await engine(stack.destroy(), "destroy");
  });
});
