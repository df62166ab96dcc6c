/**
 * An explicit `pulumi:providers:shipping` resource (what a YAML program's `type: pulumi:providers:shipping` is)
 * through the official CLI: its inputs, not the stack's `shipping:` config, say where its resources go; a
 * `shops` object works as in stack config; its credentials are secret in the state; and a key rotated in its
 * inputs updates the provider in place, with no replacement and no write.
 */
import { describe, expect, it } from "vitest";
import { PLUGIN_TYPE, pluginProgram, pluginResource, usePluginSimulator } from "../support/pluginProject";
import { LABELS, ORDERS } from "../support/services";
import { ACME_KEY, ACME_SECOND_KEY, GLOBEX_KEY, leaksOf } from "../support/shops";

/** The simulator of this file (reset before each test) and the plugin projects on it. */
const plugin = usePluginSimulator();

/** A program with an explicit provider whose default shop is globex and whose entry `eu` holds `euKey`. */
function program(euKey: string): string {
  return pluginProgram(`class Shipping extends pulumi.ProviderResource {
  constructor(name: string, args: pulumi.Inputs) {
    super("shipping", name, args);
  }
}
const config = new pulumi.Config();
const explicit = new Shipping("explicit", {
  baseUrl: config.require("apiBase"),
  apiKey: config.requireSecret("globexKey"),
  shops: pulumi.secret({ eu: { apiKey: "${euKey}" } }),
});
${pluginResource("labels", `hook: "${LABELS}", url: "https://hooks.example.com/labels"`, "provider: explicit")}${pluginResource("orders", `hook: "${ORDERS}", url: "https://hooks.example.com/orders", shop: "eu"`, "provider: explicit")}`);
}

describe("an explicit shipping provider", () => {
  it("takes its settings from its inputs, keeps its keys secret, and updates in place when a key rotates", async () => {
    const project = await plugin.project("plugin-explicit", program(ACME_KEY));
    await project.ok(["config", "set", "apiBase", plugin.sim.baseUrl]);
    await project.ok(["config", "set", "--secret", "globexKey", GLOBEX_KEY]);
    // The stack's own shipping:baseUrl points nowhere: only the explicit provider's inputs are used.
    await project.ok(["config", "set", "shipping:baseUrl", "http://127.0.0.1:9"]);

    await project.ok(["up", "--yes"]);
    expect(plugin.liveHooks("globex")).toEqual([`${LABELS}=https://hooks.example.com/labels`]);
    expect(plugin.liveHooks("acme")).toEqual([`${ORDERS}=https://hooks.example.com/orders`]);
    const exported = (await project.ok(["stack", "export"])).stdout;
    expect([...leaksOf(GLOBEX_KEY, exported), ...leaksOf(ACME_KEY, exported)]).toEqual([]);
    const ids = (await project.resources())
      .filter((r) => r.type === PLUGIN_TYPE)
      .map((r) => r.id)
      .sort();

    plugin.sim.clearRequests();
    project.write({ "index.ts": program(ACME_SECOND_KEY) });
    const up = await project.ok(["up", "--yes"]);
    expect(up.stdout).not.toMatch(/replace/);
    expect(plugin.writes()).toEqual([]);
    expect(
      (await project.resources())
        .filter((r) => r.type === PLUGIN_TYPE)
        .map((r) => r.id)
        .sort(),
    ).toEqual(ids);
    expect(leaksOf(ACME_SECOND_KEY, (await project.ok(["stack", "export"])).stdout)).toEqual([]);

    await project.ok(["destroy", "--yes"]);
    expect([...plugin.liveHooks("globex"), ...plugin.liveHooks("acme")]).toEqual([]);
  });
});
