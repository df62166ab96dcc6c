/**
 * examples/yaml as a user runs it: the folder copied as it is, its package.json's dependencies installed (the
 * package from its tarball, as the tests install it: `node_modules/.bin` holds the plugin), then the `pulumi`
 * lines of its README's "Run it" block in order, through the official CLI and the YAML language host. Judged
 * by the live subscriptions and the state.
 */
import { readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HOOKS } from "../../provider/inputs/hooks";
import { installedPackages } from "../support/install";
import { OfficialProject } from "../support/officialProject";
import { PLUGIN_TYPE, usePluginSimulator } from "../support/pluginProject";
import { blockAfterHeading, pulumiCommands } from "../support/readme";
import { ACME_KEY } from "../support/shops";

const ROOT = join(__dirname, "..", "..");

/** The simulator of this file (reset before each test) and the plugin projects on it. */
const plugin = usePluginSimulator();

describe("examples/yaml", () => {
  it("runs as its README says: npm install brings the plugin, preview writes nothing, up, destroy", async () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, "examples", "yaml", "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    expect(Object.keys(manifest.dependencies).sort()).toEqual(["@pulumi/pulumi", "pulumi-shipping-webhooks"]);
    const lines = pulumiCommands(blockAfterHeading("## Run it", "examples/yaml/README.md"), {
      "https://<api host>": plugin.sim.baseUrl,
      "<key>": ACME_KEY,
    }).map((args) => (args[0] === "up" || args[0] === "destroy" ? [...args, "--yes"] : args));
    expect(lines.map((args) => args[0])).toEqual(["stack", "config", "config", "preview", "up", "destroy"]);

    const project = await OfficialProject.create("yaml-example", { copyOf: join(ROOT, "examples", "yaml") });
    // What `npm install` leaves: the package installed, its plugin command in node_modules/.bin.
    symlinkSync(join(await installedPackages("commonjs"), "node_modules"), join(project.dir, "node_modules"));
    const [preview, up, destroy] = lines.slice(-3) as [string[], string[], string[]];
    for (const args of lines.slice(0, -3)) await project.ok(args);
    await project.ok(preview);
    expect(plugin.writes()).toEqual([]);

    const deployed = await project.ok(up);
    expect(
      plugin
        .liveHooks()
        .map((h) => h.split("=")[0])
        .sort(),
    ).toEqual([...HOOKS].sort());
    const state = (await project.resources()).filter((r) => r.type === PLUGIN_TYPE);
    expect(state.map((r) => r.id).sort()).toEqual(
      plugin.sim
        .subscriptions("acme")
        .map((s) => String(s.id))
        .sort(),
    );
    expect(deployed.stdout).toMatch(/labelCreatedId\s*:\s*\d+/);

    await project.ok(destroy);
    expect(plugin.liveHooks()).toEqual([]);
    expect(await project.resources()).toEqual([]);
  });
});
