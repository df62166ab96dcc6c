/**
 * Every example, as a user runs it: its folder copied into a project (package.json and tsconfig.json as
 * `pulumi new typescript` makes them where the example has none), configured as its comments say, through
 * the official CLI and its Node.js language host. Judged by the live subscriptions and the state.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOOKS } from "../../provider/hooks";
import { type RunningSimulator, startSimulator } from "../../simulator";
import { REPO_ROOT } from "../e2e/support/engine";
import { ACME_KEY, GLOBEX_KEY, TEST_SHOPS } from "../support/shops";
import { OfficialProject, typescriptProjectFiles } from "./support/project";

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ shops: TEST_SHOPS });
});
afterAll(() => sim.close());

/** A project of `examples/<name>` with a stack `dev` whose API is the simulator. */
async function exampleProject(name: string): Promise<OfficialProject> {
  const { "package.json": manifest, "tsconfig.json": tsconfig } = typescriptProjectFiles(name);
  const project = await OfficialProject.create(name, { copyOf: join(REPO_ROOT, "examples", name) });
  project.write({ "package.json": manifest as string, "tsconfig.json": tsconfig as string });
  await project.ok(["stack", "init", "dev"]);
  await project.ok(["config", "set", "shipping:baseUrl", sim.baseUrl]);
  return project;
}

/** The URLs of a shop's live subscriptions, by hook. */
function urlsOf(shop: string): Record<string, string> {
  return Object.fromEntries(sim.subscriptions(shop).map((s) => [s.hook, s.url]));
}

/** The stack's subscription ids by resource name, and the shop's live ids by hook. */
async function expectStateIsLive(project: OfficialProject, shops: readonly string[]): Promise<void> {
  const state = (await project.subscriptions()).map(
    (r) => `${r.outputs?.shop ?? ""}/${r.outputs?.hook}=${r.id}`,
  );
  const liveIds = shops.flatMap((shop) =>
    sim.subscriptions(shop).map((s) => `${shops.length > 1 ? shop : ""}/${s.hook}=${s.id}`),
  );
  expect(state.sort()).toEqual(liveIds.sort());
}

describe("the examples through the official CLI", () => {
  it("single-shop: three hooks declared in TypeScript, ids as stack outputs; destroy removes them", async () => {
    sim.reset();
    const project = await exampleProject("single-shop");
    await project.ok(["config", "set", "--secret", "shipping:apiKey", ACME_KEY]);
    await project.ok(["up", "--yes"]);
    expect(urlsOf("acme")).toEqual({
      shipment_status_change: "https://hooks.example.com/acme/shipments",
      shipment_label_created: "https://hooks.example.com/acme/labels",
      order_status_change: "https://hooks.example.com/acme/orders",
    });
    await expectStateIsLive(project, ["acme"]);
    const outputs = JSON.parse((await project.ok(["stack", "output", "--json"])).stdout) as Record<
      string,
      number
    >;
    expect(outputs.orderStatusId).toBe(
      sim.subscriptions("acme").find((s) => s.hook === "order_status_change")?.id,
    );
    await project.ok(["destroy", "--yes", "--skip-preview"]);
    expect(sim.subscriptions("acme")).toEqual([]);
  });

  it("from-config: the hooks of Pulumi.yaml, the key from the environment; bad entries fail preview by path", async () => {
    sim.reset();
    const project = await exampleProject("from-config");
    const env = { SHIPPING_API_KEY: ACME_KEY };
    await project.ok(["up", "--yes"], env);
    expect(urlsOf("acme")).toEqual({
      shipment_status_change: "https://hooks.example.com/demo/shipments",
      shipment_label_created: "https://hooks.example.com/demo/labels",
      order_status_change: "https://hooks.example.com/demo/orders",
    });
    await expectStateIsLive(project, ["acme"]);

    await project.ok([
      "config",
      "set",
      "--path",
      "from-config:hooks.order_status_change",
      "HTTPS://Hooks.example.com/o",
    ]);
    await project.ok(["config", "set", "--path", "from-config:hooks.parcel_lost", "https://x.example"]);
    sim.clearRequests();
    const bad = await project.pulumi(["preview"], env);
    expect(bad.status).not.toBe(0);
    expect(bad.stdout).toMatch(/from-config:hooks\.order_status_change: .*must be lowercase/);
    expect(bad.stdout).toMatch(/from-config:hooks\.parcel_lost: not a hook/);
    expect(sim.requests()).toEqual([]);

    await project.ok(["destroy", "--yes", "--skip-preview"], env);
    expect(sim.subscriptions("acme")).toEqual([]);
  });

  it("multi-shop: each shop's key set as its comments say, every hook of both shops kept apart", async () => {
    sim.reset();
    const project = await exampleProject("multi-shop");
    await project.ok(["config", "set", "--secret", "--path", "shipping:shops.acme.apiKey", ACME_KEY]);
    await project.ok(["config", "set", "--secret", "--path", "shipping:shops.globex.apiKey", GLOBEX_KEY]);
    await project.ok(["up", "--yes"]);
    for (const shop of ["acme", "globex"]) {
      expect(urlsOf(shop)).toEqual(
        Object.fromEntries(
          HOOKS.map((h) => [h, `https://hooks.example.com/${shop}/${h.replaceAll("_", "-")}`]),
        ),
      );
    }
    await expectStateIsLive(project, ["acme", "globex"]);
    await project.ok(["destroy", "--yes", "--skip-preview"]);
    expect([...sim.subscriptions("acme"), ...sim.subscriptions("globex")]).toEqual([]);
  });
});
