/**
 * Every example, as a user runs it: its folder copied as it is (its own package.json, tsconfig.json and
 * Pulumi.yaml) into a project whose dependencies are installed, then the `pulumi` lines of its README's
 * "Run it" block, in order, through the official CLI and its Node.js language host. Judged by the live
 * subscriptions and the state.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HOOKS } from "../../provider/inputs/hooks";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { REPO_ROOT } from "../support/engine";
import { OfficialProject } from "../support/officialProject";
import { blockAfterHeading, pulumiCommands } from "../support/readme";
import { ACME_KEY, GLOBEX_KEY } from "../support/shops";

/** The simulator of this file, reset before each test. */
const acme = useAcmeSimulator();

/** What the READMEs' placeholders stand for here. */
function placeholders(): Record<string, string> {
  return {
    "https://<api host>": acme.sim.baseUrl,
    "<acme key>": ACME_KEY,
    "<globex key>": GLOBEX_KEY,
    "<key>": ACME_KEY,
  };
}

/**
 * `examples/<name>` copied as it is, and the `pulumi` lines of its README's "Run it" block (`up` and `destroy`
 * answered yes, as the user at the prompt does), keyed by command: the lines before `preview` configure.
 */
async function exampleProject(name: string): Promise<{ project: OfficialProject; run: RunSteps }> {
  const project = await OfficialProject.create(name, { copyOf: join(REPO_ROOT, "examples", name) });
  const lines = pulumiCommands(
    blockAfterHeading("## Run it", `examples/${name}/README.md`),
    placeholders(),
  ).map((args) => (args[0] === "up" || args[0] === "destroy" ? [...args, "--yes"] : args));
  const steps = lines.map((args) => args[0]);
  expect(steps.slice(0, 2)).toEqual(["stack", "config"]);
  expect(steps.slice(-3)).toEqual(["preview", "up", "destroy"]);
  for (const args of lines.slice(0, -3)) await project.ok(args);
  const [preview, up, destroy] = lines.slice(-3) as [string[], string[], string[]];
  return {
    project,
    run: {
      preview: async () => {
        acme.sim.clearRequests();
        await project.ok(preview);
        expect(acme.sim.requests().filter((r) => r.method !== "GET")).toEqual([]);
      },
      up: () => project.ok(up),
      destroy: () => project.ok(destroy),
    },
  };
}

/** The README's last three steps. */
interface RunSteps {
  /** `pulumi preview`, asserted to write nothing. */
  preview(): Promise<void>;
  up(): Promise<unknown>;
  destroy(): Promise<unknown>;
}

/** The URLs of a shop's live subscriptions, by hook. */
function urlsOf(shop: string): Record<string, string> {
  return Object.fromEntries(acme.sim.subscriptions(shop).map((s) => [s.hook, s.url]));
}

/** The stack's subscription ids by resource name, and the shop's live ids by hook. */
async function expectStateIsLive(project: OfficialProject, shops: readonly string[]): Promise<void> {
  const state = (await project.subscriptions()).map(
    (r) => `${r.outputs?.shop ?? ""}/${r.outputs?.hook}=${r.id}`,
  );
  const liveIds = shops.flatMap((shop) =>
    acme.sim.subscriptions(shop).map((s) => `${shops.length > 1 ? shop : ""}/${s.hook}=${s.id}`),
  );
  expect(state.sort()).toEqual(liveIds.sort());
}

describe("the examples through the official CLI", () => {
  it("single-shop: three hooks declared in TypeScript, ids as stack outputs; destroy removes them", async () => {
    const { project, run } = await exampleProject("single-shop");
    await run.preview();
    expect(urlsOf("acme")).toEqual({});
    await run.up();
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
      acme.sim.subscriptions("acme").find((s) => s.hook === "order_status_change")?.id,
    );
    await run.destroy();
    expect(acme.sim.subscriptions("acme")).toEqual([]);
    expect(await project.subscriptions()).toEqual([]);
  });

  it("from-config: the hooks of Pulumi.yaml; bad entries fail preview by path", async () => {
    const { project, run } = await exampleProject("from-config");
    await run.preview();
    await run.up();
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
    acme.sim.clearRequests();
    const bad = await project.pulumi(["preview"]);
    expect(bad.status).not.toBe(0);
    expect(bad.stdout).toMatch(/from-config:hooks\.order_status_change: .*must be lowercase/);
    expect(bad.stdout).toMatch(/from-config:hooks\.parcel_lost: not a hook/);
    expect(acme.sim.requests()).toEqual([]);

    await run.destroy();
    expect(acme.sim.subscriptions("acme")).toEqual([]);
  });

  it("multi-shop: each shop's key set as its README says, every hook of both shops kept apart", async () => {
    const { project, run } = await exampleProject("multi-shop");
    await run.preview();
    await run.up();
    for (const shop of ["acme", "globex"]) {
      expect(urlsOf(shop)).toEqual(
        Object.fromEntries(
          HOOKS.map((h) => [h, `https://hooks.example.com/${shop}/${h.replaceAll("_", "-")}`]),
        ),
      );
    }
    await expectStateIsLive(project, ["acme", "globex"]);
    await run.destroy();
    expect([...acme.sim.subscriptions("acme"), ...acme.sim.subscriptions("globex")]).toEqual([]);
  });
});
