/**
 * A URL changed in the back office (the service keeps the id), under the provider plugin, through the official
 * CLI: `pulumi preview` warns of the drift, naming the subscription id and the hook and not the URL, as the
 * TypeScript class's program does (docs/safety.md, the drift row); the plugin's diff says it, no program being
 * there to.
 */
import { describe, expect, it } from "vitest";
import { ShippingClient } from "../../provider";
import { PLUGIN_TYPE, pluginProgram, pluginResource, usePluginSimulator } from "../support/pluginProject";
import { LABELS } from "../support/services";
import { ACME_KEY } from "../support/shops";

const OURS = "https://hooks.example.com/labels";
const BACK_OFFICE = "https://back-office.example.net/labels";

const plugin = usePluginSimulator();

describe("under the provider plugin, a URL changed in the back office", () => {
  it("preview warns of it, naming the id and the hook, not the URL", async () => {
    const project = await plugin.project(
      "plugin-preview-drift",
      pluginProgram(pluginResource("labels", `hook: "${LABELS}", url: "${OURS}"`)),
    );
    await project.ok(["up", "--yes", "--skip-preview"]);
    const [sub] = (await project.resources()).filter((r) => r.type === PLUGIN_TYPE);
    const clean = await project.ok(["preview"]);
    expect(`${clean.stdout}${clean.stderr}`).not.toContain(`subscription ${sub?.id}`);

    plugin.sim.setSwitches({ overwrite: "keep-id" });
    const client = new ShippingClient({ baseUrl: plugin.sim.baseUrl, apiKey: ACME_KEY });
    await client.create([{ hook: LABELS, url: BACK_OFFICE }]);
    await client.close();
    plugin.sim.setSwitches({ overwrite: "new-id" });
    plugin.sim.clearRequests();

    const preview = await project.ok(["preview"]);
    const printed = `${preview.stdout}${preview.stderr}`;
    expect(printed).toMatch(new RegExp(`warning: .*subscription ${sub?.id} \\(${LABELS}\\)`));
    expect(printed).not.toContain("back-office.example.net");
    expect(plugin.writes()).toEqual([]);
  });
});
