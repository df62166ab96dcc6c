/**
 * templates/shipping-webhooks-yaml as a user starts a YAML GitOps repository from it: `pulumi new` with the
 * template, then its README's "Run it" block in order, through the official CLI and the YAML language host,
 * judged by the live subscriptions and the state. Before `npm install` the plugin's launcher says what to run;
 * after it (the package from its tarball, as the tests install it) preview writes nothing, up subscribes the
 * template's hook, destroy removes it. The repository gets the GitOps example's workflows, the same files.
 */
import { readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/engine";
import { installedPackages } from "../support/install";
import { OfficialProject } from "../support/officialProject";
import { PLUGIN_TYPE, usePluginSimulator } from "../support/pluginProject";
import { blockAfterHeading, pulumiCommands } from "../support/readme";
import { ACME_KEY, leaksOf } from "../support/shops";

const TEMPLATE = join(REPO_ROOT, "templates", "shipping-webhooks-yaml");
/** The GitOps workflows, as paths below a repository's root. */
const WORKFLOWS = ["webhooks.yml", "drift.yml"].map((file) => join(".github", "workflows", file));

/** The simulator of this file (reset before each test) and the plugin projects on it. */
const plugin = usePluginSimulator();

describe("pulumi new with the YAML template", () => {
  it("runs as its README says: the plugin is asked for until npm install, then preview, up, destroy", async () => {
    const lines = pulumiCommands(
      blockAfterHeading("## Run it", "templates/shipping-webhooks-yaml/README.md"),
      {
        "https://<api host>": plugin.sim.baseUrl,
        "<key>": ACME_KEY,
      },
    ).map((args) => (args[0] === "up" || args[0] === "destroy" ? [...args, "--yes"] : args));
    expect(lines.map((args) => args[0])).toEqual(["stack", "config", "config", "preview", "up", "destroy"]);

    const project = await OfficialProject.create("yaml-template", {});
    await project.ok(["new", TEMPLATE, "--generate-only", "--yes", "--name", "shop-hooks"]);
    for (const workflow of WORKFLOWS) {
      expect(readFileSync(join(project.dir, workflow), "utf8")).toBe(
        readFileSync(join(REPO_ROOT, "examples", "gitops", workflow), "utf8"),
      );
    }
    const manifest = JSON.parse(readFileSync(join(project.dir, "package.json"), "utf8")) as {
      name: string;
      dependencies: Record<string, string>;
    };
    expect(manifest.name).toBe("shop-hooks");
    expect(Object.keys(manifest.dependencies).sort()).toEqual(["@pulumi/pulumi", "pulumi-shipping-webhooks"]);

    const [preview, up, destroy] = lines.slice(-3) as [string[], string[], string[]];
    for (const args of lines.slice(0, -3)) await project.ok(args);
    // Before `npm install`: the plugin folder's launcher names the command, and nothing is written.
    const early = await project.pulumi(preview);
    expect(early.status).not.toBe(0);
    expect(early.stdout + early.stderr).toContain(
      "pulumi-resource-shipping is not installed: run `npm install`",
    );

    // What `npm install` leaves: the package installed, its plugin command in node_modules/.bin.
    symlinkSync(join(await installedPackages("commonjs"), "node_modules"), join(project.dir, "node_modules"));
    await project.ok(preview);
    expect(plugin.writes()).toEqual([]);
    const deployed = await project.ok(up);
    expect(plugin.liveHooks()).toEqual(["order_status_change=https://hooks.example.com/orders"]);
    const state = (await project.resources()).filter((r) => r.type === PLUGIN_TYPE);
    expect(state.map((r) => r.id)).toEqual(plugin.sim.subscriptions("acme").map((s) => String(s.id)));
    expect(deployed.stdout).toMatch(/orderHookId\s*:\s*\d+/);
    expect(leaksOf(ACME_KEY, readFileSync(join(project.dir, "Pulumi.dev.yaml"), "utf8"))).toEqual([]);

    await project.ok(destroy);
    expect(plugin.liveHooks()).toEqual([]);
    expect(await project.resources()).toEqual([]);
  });
});
