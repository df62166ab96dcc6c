import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { PulumiFn, Stack } from "@pulumi/pulumi/automation";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../../simulator";
import { dist, engine, REPO_ROOT, type Sandbox, sandbox, subscriptionResources } from "../e2e/support/engine";
import { ACME_KEY, GLOBEX_KEY, TEST_SHOPS } from "../support/shops";
import { runCli } from "./support/cli";

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ shops: TEST_SHOPS });
});
afterAll(() => sim.close());

const SHOPS = JSON.stringify({ acme: { apiKey: ACME_KEY }, globex: { apiKey: GLOBEX_KEY } });

/** Creates subscriptions directly on the API, as the back office (or another tool) would have. */
async function seed(apiKey: string, subscriptions: Array<{ hook: string; url: string }>): Promise<void> {
  const client = new dist.provider.ShippingClient({ baseUrl: sim.baseUrl, apiKey });
  try {
    await client.create(subscriptions);
  } finally {
    await client.close();
  }
}

/** Runs the export CLI and returns what it printed, failing on a non-zero exit. */
async function exported(args: string[], env: Record<string, string>): Promise<string> {
  const run = await runCli(["export", ...args], env);
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
}

/** Opens stack `test` of a project folder in `box` (its Pulumi.yaml and any Pulumi.test.yaml are used). */
function openProject(box: Sandbox, projectName: string, program: PulumiFn, env: Record<string, string>) {
  return dist.stacks.openStack({
    workDir: box.workDir,
    projectName,
    stackName: "test",
    program,
    env: { PULUMI_HOME: box.pulumiHome, ...env },
  });
}

/** Ups `stack` and checks the adoption: no write to the API, every resource took over the live subscription. */
async function expectAdoption(stack: Stack, shop: string) {
  const live = sim.subscriptions(shop);
  sim.clearRequests();
  await engine(stack.up(), "up (adoption)");
  expect(sim.requests().filter((r) => r.method !== "GET")).toEqual([]);
  const resources = subscriptionResources(await stack.exportStack());
  // `previous` is a secret output: stored encrypted, exported as a plaintext envelope under --show-secrets.
  const previousOf = (value: unknown): unknown =>
    JSON.parse((value as { plaintext: string }).plaintext) as unknown;
  expect(resources.map((r) => [r.outputs.hook, Number(r.id), previousOf(r.outputs.previous)]).sort()).toEqual(
    live.map((s) => [s.hook, s.id, { id: s.id, url: s.url }]).sort(),
  );
  expect(sim.subscriptions(shop)).toEqual(live);
  const again = await engine(stack.preview(), "preview after the adoption");
  expect(again.changeSummary).toEqual({ same: live.length + 1 });
}

describe("export, then pulumi up: adoption without any write", () => {
  it("--format yaml fed as Pulumi.test.yaml to examples/from-config adopts a shop's subscriptions", async () => {
    sim.reset();
    await seed(ACME_KEY, [
      { hook: "shipment_status_change", url: "https://hooks.example.com/acme/shipments" },
      { hook: "order_status_change", url: "https://hooks.example.com/acme/orders?token=t1" },
    ]);
    await seed(GLOBEX_KEY, [{ hook: "order_status_change", url: "https://hooks.example.com/globex/orders" }]);
    const env = { SHIPPING_SHOPS: SHOPS, SHIPPING_BASE_URL: sim.baseUrl };
    const yaml = await exported(["--shop", "acme", "--format", "yaml"], env);

    const box = sandbox("adopt-yaml");
    copyFileSync(join(REPO_ROOT, "examples/from-config/Pulumi.yaml"), join(box.workDir, "Pulumi.yaml"));
    writeFileSync(join(box.workDir, "Pulumi.test.yaml"), yaml);
    const program = (dist.module("examples/from-config/index.js") as { default: PulumiFn }).default;
    const stack = await openProject(box, "from-config", program, env);
    // The stack file is the CLI's output (the engine only added its encryption salt).
    expect(readFileSync(join(box.workDir, "Pulumi.test.yaml"), "utf8")).toContain(yaml.trim());
    await expectAdoption(stack, "acme");
    expect(sim.subscriptions("globex")).toHaveLength(1);
    await engine(stack.destroy(), "destroy");
    expect(sim.subscriptions("acme")).toEqual([]);
    expect(sim.subscriptions("globex")).toHaveLength(1);
  });

  it("--format ts, compiled and run as the program, adopts the default shop's subscriptions", async () => {
    sim.reset();
    await seed(ACME_KEY, [
      { hook: "shipment_label_created", url: "https://hooks.example.com/acme/labels" },
      { hook: "order_status_change", url: "https://hooks.example.com/acme/orders" },
      { hook: "shipment_status_change", url: "https://hooks.example.com/acme/shipments" },
    ]);
    const env = { SHIPPING_API_KEY: ACME_KEY, SHIPPING_BASE_URL: sim.baseUrl };
    const source = await exported([], env);

    const box = sandbox("adopt-ts");
    const transpiled = ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
      reportDiagnostics: true,
    });
    expect(transpiled.diagnostics ?? []).toEqual([]);
    const file = join(box.root, "adopted.js");
    writeFileSync(file, transpiled.outputText);
    // Resolves pulumi-shipping-webhooks through the repository's node_modules: the compiled package.
    const program = (createRequire(file)(file) as { default: PulumiFn }).default;
    writeFileSync(
      join(box.workDir, "Pulumi.yaml"),
      "name: adopted\nruntime: nodejs\nbackend:\n  url: file://./.pulumi-state\n",
    );
    const stack = await openProject(box, "adopted", program, env);
    await expectAdoption(stack, "acme");
    await engine(stack.destroy(), "destroy");
    expect(sim.subscriptions("acme")).toEqual([]);
  });
});
