/**
 * `pulumi import` of the plugin's resource through the official CLI: a live subscription imported by id
 * (`<id>`, and `<shop>/<id>` for an entry of `shipping:shops`) is recorded with its inputs, the import prints
 * its declaration, and the next `up` of a program that declares it changes nothing and writes nothing; an id
 * the shop does not hold is refused, saying so, and nothing is recorded.
 */
import { describe, expect, it } from "vitest";
import { ShippingClient } from "../../provider";
import { PLUGIN_TYPE, pluginProgram, pluginResource, usePluginSimulator } from "../support/pluginProject";
import { LABELS } from "../support/services";
import { ACME_KEY, GLOBEX_KEY, leaksOf } from "../support/shops";

const LABELS_URL = "https://hooks.example.com/labels";
const GLOBEX_URL = "https://hooks.example.com/globex-orders";

/** The simulator of this file (reset before each test) and the plugin projects on it. */
const plugin = usePluginSimulator();

async function subscribe(apiKey: string, hook: string, url: string): Promise<number> {
  const client = new ShippingClient({ baseUrl: plugin.sim.baseUrl, apiKey });
  const [id] = await client.create([{ hook, url }]);
  await client.close();
  if (id === undefined) throw new Error("no id");
  return id;
}

describe("pulumi import of a WebhookSubscription", () => {
  it("records a live subscription by id and prints its declaration; the next up writes nothing; a missing id says so", async () => {
    const labelsId = await subscribe(ACME_KEY, LABELS, LABELS_URL);
    const globexId = await subscribe(GLOBEX_KEY, "order_status_change", GLOBEX_URL);
    const project = await plugin.project("plugin-import", pluginProgram(""));
    await project.ok(["config", "set", "--secret", "--path", "shipping:shops.globex.apiKey", GLOBEX_KEY]);
    plugin.sim.clearRequests();

    const missing = await project.pulumi(["import", PLUGIN_TYPE, "ghost", "999999", "--yes"]);
    expect(missing.status).not.toBe(0);
    expect(`${missing.stdout}${missing.stderr}`).toContain(
      "subscription 999999 does not exist in the default shop",
    );
    expect(await project.resources()).toEqual([]);

    const imported = await project.ok(["import", PLUGIN_TYPE, "labels", String(labelsId), "--yes"]);
    expect(imported.stdout).toContain("hook: shipping.Hook.Shipment_label_created");
    expect(imported.stdout).toContain(`url: "${LABELS_URL}"`);
    await project.ok(["import", PLUGIN_TYPE, "globex-orders", `globex/${globexId}`, "--yes"]);
    const state = (await project.resources()).filter((r) => r.type === PLUGIN_TYPE);
    const labels = state.find((r) => r.urn.endsWith("::labels"));
    expect(labels?.id).toBe(String(labelsId));
    expect(labels?.inputs).toEqual({ hook: LABELS, url: LABELS_URL });
    const globex = state.find((r) => r.urn.endsWith("::globex-orders"));
    expect(globex?.id).toBe(`${globexId}`);
    expect(globex?.inputs).toEqual({ hook: "order_status_change", url: GLOBEX_URL, shop: "globex" });
    expect(leaksOf(GLOBEX_KEY, JSON.stringify(state))).toEqual([]);

    project.write({
      "index.ts": pluginProgram(
        pluginResource("labels", `hook: "${LABELS}", url: "${LABELS_URL}"`, "protect: true") +
          pluginResource(
            "globex-orders",
            `hook: "order_status_change", url: "${GLOBEX_URL}", shop: "globex"`,
            "protect: true",
          ),
      ),
    });
    // The declarations the import printed (protected, as imports are).
    await project.ok(["up", "--yes", "--expect-no-changes"]);
    expect(plugin.writes()).toEqual([]);
    expect(plugin.liveHooks()).toEqual([`${LABELS}=${LABELS_URL}`]);
    expect(plugin.liveHooks("globex")).toEqual([`order_status_change=${GLOBEX_URL}`]);
  });
});
