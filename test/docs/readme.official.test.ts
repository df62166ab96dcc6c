/**
 * The README's program, run as a user runs it: a project folder as `pulumi new typescript` makes it, this
 * package installed from its packed tarball, the official CLI with its Node.js language host. Every step is
 * judged by the live subscriptions and the state, not by the exit code alone.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { OfficialProject, officialCli, typescriptProjectFiles } from "../support/officialProject";
import { markedBlock, pulumiCommands } from "../support/readme";
import { ACME_KEY, leaksOf } from "../support/shops";

const ORDERS_URL = "https://hooks.example.com/orders";

const acme = useAcmeSimulator();
beforeAll(() => {
  console.log(officialCli().reason);
});

/** A project of the README's program `marker`, configured with the README's own commands, stack `dev`. */
async function readmeProject(marker: "program: commonjs" | "program: esm"): Promise<OfficialProject> {
  const kind = marker === "program: esm" ? "esm" : "commonjs";
  const project = await OfficialProject.create(
    `readme-${kind}`,
    {
      ...typescriptProjectFiles(`readme-${kind}`, kind),
      "index.ts": markedBlock(marker),
    },
    kind,
  );
  await project.ok(["stack", "init", "dev"]);
  const configure = pulumiCommands(markedBlock("commands: configure"), {
    "https://<api host>": acme.sim.baseUrl,
    "<key>": ACME_KEY,
  });
  expect(configure).toHaveLength(2);
  for (const args of configure) await project.ok(args);
  return project;
}

/** The subscriptions of acme as the service lists them: id, hook, url. */
function live(): Array<{ id: number; hook: string; url: string }> {
  return acme.sim.subscriptions("acme").map(({ id, hook, url }) => ({ id, hook, url }));
}

describe("the README's program through the official CLI", () => {
  it("CommonJS (pulumi new typescript): preview writes nothing, up subscribes, refresh keeps, destroy removes", async () => {
    const project = await readmeProject("program: commonjs");

    const preview = await project.ok(["preview"]);
    expect(preview.stdout).toMatch(/\+ 2 to create/);
    expect(acme.sim.requests().filter((r) => r.method !== "GET")).toEqual([]);
    expect(live()).toEqual([]);

    // The preview above is the one up would show: up goes straight to the update.
    await project.ok(["up", "--yes", "--skip-preview"]);
    const [subscription] = live();
    expect(live()).toEqual([{ id: expect.any(Number), hook: "order_status_change", url: ORDERS_URL }]);
    const state = await project.subscriptions();
    expect(state.map((r) => [r.id, r.outputs?.hook, r.outputs?.url])).toEqual([
      [String(subscription?.id), "order_status_change", ORDERS_URL],
    ]);
    expect((await project.ok(["stack", "output", "orderHookId"])).stdout.trim()).toBe(
      String(subscription?.id),
    );

    acme.sim.clearRequests();
    await project.ok(["preview", "--expect-no-changes"]);
    await project.ok(["refresh", "--yes", "--skip-preview"]);
    expect(acme.sim.requests().filter((r) => r.method !== "GET")).toEqual([]);
    expect((await project.subscriptions()).map((r) => r.id)).toEqual([String(subscription?.id)]);

    await project.ok(["destroy", "--yes", "--skip-preview"]);
    expect(live()).toEqual([]);
    expect(await project.subscriptions()).toEqual([]);
    expect(project.backendFiles().flatMap((text) => leaksOf(ACME_KEY, text))).toEqual([]);
  });

  it("ES module (type: module, export default): up subscribes, destroy removes", async () => {
    const project = await readmeProject("program: esm");
    await project.ok(["up", "--yes"]);
    const [subscription] = live();
    expect(live()).toEqual([{ id: expect.any(Number), hook: "order_status_change", url: ORDERS_URL }]);
    expect((await project.subscriptions()).map((r) => r.id)).toEqual([String(subscription?.id)]);
    expect((await project.ok(["stack", "output", "orderHookId"])).stdout.trim()).toBe(
      String(subscription?.id),
    );
    await project.ok(["destroy", "--yes", "--skip-preview"]);
    expect(live()).toEqual([]);
  });
});
