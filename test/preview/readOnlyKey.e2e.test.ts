/**
 * Issue 16, least-privilege previews: pull requests preview with a read-only API key (examples/gitops). A
 * preview, with or without refresh, needs only reads, so it shows exactly what the read-write key would;
 * `up` with a read-only key fails before it changes anything, with a message that says which key to use.
 */
import type { ConfigMap, Stack } from "@pulumi/pulumi/automation";
import { describe, expect, it } from "vitest";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { type Declaration, engine, OutputLog, sandbox, subscriptionResources } from "../support/engine";
import { openProject } from "../support/engineProject";
import { ACME_KEY, ACME_READ_ONLY_KEY, leaksOf } from "../support/shops";

/** The simulator of this file, reset before each test. */
const acme = useAcmeSimulator();

/**
 * One stack, opened twice in one sandbox: as the pull-request job (read-only key) and as the deploy job
 * (read-write key); `declare` sets what both declare.
 */
async function jobs(name: string) {
  // As in the workflow, the key comes from the job's environment; the stack config holds no key.
  const config: ConfigMap = { "shipping:baseUrl": { value: acme.sim.baseUrl } };
  const box = sandbox(name);
  const deploy = await openProject(name, config, box, { SHIPPING_API_KEY: ACME_KEY });
  const pullRequest = await openProject(name, config, box, { SHIPPING_API_KEY: ACME_READ_ONLY_KEY });
  const declare = (next: readonly Declaration[]): void => {
    deploy.declare(next);
    pullRequest.declare(next);
  };
  return { deploy, pullRequest, declare };
}

/**
 * `preview --diff` as a reviewer reads it: the change summary and each resource's block (sorted: the
 * engine prints resources in the order their steps finish).
 */
async function previewOf(stack: Stack, refresh: boolean) {
  const log = new OutputLog();
  const result = await engine(stack.preview({ diff: true, refresh, onOutput: log.onOutput }), "preview");
  return { changes: result.changeSummary, blocks: log.text.split(/\n(?= {4}\S)/).sort() };
}

/** The resources of the stack as stored: what `up` must not change. */
async function recorded(stack: Stack) {
  return subscriptionResources(await stack.exportStack()).map((r) => [r.urn, r.id, r.outputs]);
}

describe("a read-only API key", () => {
  it("previews, with and without refresh, exactly what the read-write key previews; `up` fails and changes nothing", async () => {
    const { deploy, pullRequest, declare } = await jobs("read-only");
    declare([
      { name: "orders", hook: "order_status_change", url: "https://hooks.example.com/o" },
      { name: "labels", hook: "shipment_label_created", url: "https://hooks.example.com/l" },
    ]);
    await engine(deploy.stack.up(), "up");

    // The pull request: a URL change, a hook added, a hook removed.
    declare([
      { name: "orders", hook: "order_status_change", url: "https://hooks.example.com/o-v2" },
      { name: "shipments", hook: "shipment_status_change", url: "https://hooks.example.com/s" },
    ]);
    for (const refresh of [false, true]) {
      acme.sim.clearRequests();
      const readOnly = await previewOf(pullRequest.stack, refresh);
      expect(acme.sim.requests().every((r) => r.method === "GET" && r.status === 200)).toBe(true);
      const readWrite = await previewOf(deploy.stack, refresh);
      expect(readOnly.changes).toEqual({ create: 1, replace: 1, delete: 1, same: 1 });
      expect(readOnly.changes).toEqual(readWrite.changes);
      expect(readOnly.blocks).toEqual(readWrite.blocks);
      expect(readOnly.blocks.join("\n")).toMatch(
        /~ url\s*: "https:\/\/hooks\.example\.com\/o" => "https:\/\/hooks\.example\.com\/o-v2"/,
      );
    }

    const stateBefore = await recorded(deploy.stack);
    const liveBefore = acme.sim.subscriptions("acme");
    acme.sim.clearRequests();
    // The engine's error and what it printed; "" when `up` succeeded.
    const failure = (await pullRequest.run("up")).error;
    expect(failure).not.toBe("");
    // Nothing changed: no write went through, the shop and the stack's resources are as before.
    expect(acme.sim.requests().filter((r) => r.method !== "GET" && r.status < 300)).toEqual([]);
    expect(acme.sim.subscriptions("acme")).toEqual(liveBefore);
    expect(await recorded(deploy.stack)).toEqual(stateBefore);
    // One message (the same for each refused create), naming the key to use instead.
    const messages = new Set(
      (failure.match(/error: Request failed[^\n]*/g) ?? []).map((m) =>
        m.replace(/request_id: [^)]*/, "request_id"),
      ),
    );
    expect([...messages]).toHaveLength(1);
    const [message] = messages;
    expect(message).toMatch(/403 Forbidden: POST http:\/\/127\.0\.0\.1:\d+\/webhook_subscriptions/);
    expect(message).toMatch(/API says: this API key is read-only/);
    expect(message).toMatch(
      /hint: .*run pulumi up and destroy with a read-write key \(shipping:apiKey or SHIPPING_API_KEY/,
    );
    expect(leaksOf(ACME_READ_ONLY_KEY, failure)).toEqual([]);
  });
});
