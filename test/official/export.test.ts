/**
 * `npx pulumi-shipping-webhooks export`, run in a project as the README says, its output pasted verbatim as
 * the project's index.ts: the official CLI's `pulumi up` takes the live subscriptions over without a write,
 * and the stack then previews with no change.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ShippingClient } from "../../provider";
import { type RunningSimulator, startSimulator } from "../../simulator";
import { REPO_ROOT } from "../e2e/support/engine";
import { runProcess } from "../package/support/process";
import { ACME_KEY, TEST_SHOPS } from "../support/shops";
import { OfficialProject, typescriptProjectFiles } from "./support/project";

const EXPORT_DEADLINE_MS = 60_000;

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ shops: TEST_SHOPS });
});
afterAll(() => sim.close());

/** Subscriptions made directly at the API, as the back office or another tool would have. */
async function seed(subscriptions: Array<{ hook: string; url: string }>): Promise<void> {
  const client = new ShippingClient({ baseUrl: sim.baseUrl, apiKey: ACME_KEY });
  try {
    await client.create(subscriptions);
  } finally {
    await client.close();
  }
}

describe("export's program, pasted into a project", () => {
  it("up adopts every live subscription with no write; then nothing changes", async () => {
    sim.reset();
    await seed([
      { hook: "shipment_label_created", url: "https://hooks.example.com/acme/labels" },
      { hook: "order_status_change", url: "https://hooks.example.com/acme/orders" },
      { hook: "shipment_status_change", url: "https://hooks.example.com/acme/shipments" },
    ]);
    const live = sim.subscriptions("acme");
    const project = await OfficialProject.create("exported", typescriptProjectFiles("exported"));
    const exported = await runProcess("npx", ["--no-install", "pulumi-shipping-webhooks", "export"], {
      cwd: project.dir,
      env: { ...project.env, SHIPPING_API_KEY: ACME_KEY, SHIPPING_BASE_URL: sim.baseUrl },
      deadlineMs: EXPORT_DEADLINE_MS,
    });
    expect(exported.status, exported.stderr).toBe(0);
    project.write({ "index.ts": exported.stdout });
    await project.ok(["stack", "init", "dev"]);
    await project.ok(["config", "set", "shipping:baseUrl", sim.baseUrl]);
    await project.ok(["config", "set", "--secret", "shipping:apiKey", ACME_KEY]);

    sim.clearRequests();
    await project.ok(["up", "--yes"]);
    expect(sim.requests().filter((r) => r.method !== "GET")).toEqual([]);
    expect(sim.subscriptions("acme")).toEqual(live);
    const state = await project.subscriptions();
    expect(state.map((r) => `${r.outputs?.hook}=${r.id}`).sort()).toEqual(
      live.map((s) => `${s.hook}=${s.id}`).sort(),
    );

    await project.ok(["preview", "--expect-no-changes"]);
    const again = await project.ok(["up", "--yes"]);
    expect(again.stdout).toMatch(/4 unchanged/);
    expect(sim.requests().filter((r) => r.method !== "GET")).toEqual([]);
  });

  it("--format yaml as Pulumi.dev.yaml of examples/from-config adopts one shop's subscriptions, no write", async () => {
    sim.reset();
    await seed([
      { hook: "shipment_status_change", url: "https://hooks.example.com/acme/shipments" },
      { hook: "order_status_change", url: "https://hooks.example.com/acme/orders?token=t1" },
    ]);
    const live = sim.subscriptions("acme");
    const project = await OfficialProject.create("exported-yaml", {
      copyOf: join(REPO_ROOT, "examples", "from-config"),
    });
    project.write(typescriptProjectFiles("from-config"));
    project.write({
      "Pulumi.yaml": readFileSync(join(REPO_ROOT, "examples/from-config/Pulumi.yaml"), "utf8"),
    });
    const shops = JSON.stringify({ acme: { apiKey: ACME_KEY } });
    const env = { ...project.env, SHIPPING_SHOPS: shops, SHIPPING_BASE_URL: sim.baseUrl };
    const exported = await runProcess(
      "npx",
      ["--no-install", "pulumi-shipping-webhooks", "export", "--shop", "acme", "--format", "yaml"],
      { cwd: project.dir, env, deadlineMs: EXPORT_DEADLINE_MS },
    );
    expect(exported.status, exported.stderr).toBe(0);
    project.write({ "Pulumi.dev.yaml": exported.stdout });
    await project.ok(["stack", "init", "dev"]);
    // The stack file is the CLI's output (the engine only adds its encryption salt).
    expect(readFileSync(join(project.dir, "Pulumi.dev.yaml"), "utf8")).toContain(exported.stdout.trim());

    sim.clearRequests();
    await project.ok(["up", "--yes"], { SHIPPING_SHOPS: shops, SHIPPING_BASE_URL: sim.baseUrl });
    expect(sim.requests().filter((r) => r.method !== "GET")).toEqual([]);
    expect(sim.subscriptions("acme")).toEqual(live);
    const state = await project.subscriptions();
    expect(state.map((r) => `${r.outputs?.shop}/${r.outputs?.hook}=${r.id}`).sort()).toEqual(
      live.map((s) => `acme/${s.hook}=${s.id}`).sort(),
    );
    await project.ok(["preview", "--expect-no-changes"], {
      SHIPPING_SHOPS: shops,
      SHIPPING_BASE_URL: sim.baseUrl,
    });
  });
});
