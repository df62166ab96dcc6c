/**
 * A resource never conflicts with itself across the plugin's provider processes: the engine checks a replaced
 * resource twice (the second time without old inputs, with its URN), and a resource moved from the default
 * provider to an explicit one is checked by the other process; neither is a second declaration. Through the
 * official CLI and the YAML language host, judged by the simulator's live subscriptions.
 */
import { describe, expect, it } from "vitest";
import { usePluginSimulator, yamlPluginHead, yamlResource } from "../support/pluginProject";
import { ACME_KEY } from "../support/shops";

/** `orders` (through `ordersProvider`, or the default provider) and `labels` through the explicit provider. */
async function program(ordersUrl: string, labelsUrl: string, ordersProvider?: string): Promise<string> {
  const head = await yamlPluginHead("yaml-replace", { provider: "acme", keyName: "explicitKey" });
  const orders = yamlResource("orders", "order_status_change", ordersUrl, ordersProvider);
  return `${head}${orders}${yamlResource("labels", "shipment_label_created", labelsUrl, "acme")}`;
}

/** The simulator of this file (reset before each test) and the plugin projects on it. */
const plugin = usePluginSimulator();

describe("a YAML program whose resources are replaced and moved between the plugin's provider processes", () => {
  it("replaces both, then moves one to the explicit provider, with no refusal: a resource is no second of itself", async () => {
    const project = await plugin.yamlProject(
      "yaml-replace",
      await program("https://hooks.example.com/orders", "https://hooks.example.com/labels"),
      { secretKey: true, explicitKey: { name: "explicitKey", value: ACME_KEY } },
    );
    await project.ok(["up", "--yes"]);

    // A URL change replaces (create before delete): each process checks its resource twice.
    project.write({
      "Pulumi.yaml": await program(
        "https://hooks.example.com/orders-2",
        "https://hooks.example.com/labels-2",
      ),
    });
    const replaced = await project.ok(["up", "--yes"]);
    expect(replaced.stdout).toMatch(/2 replaced/);
    expect(plugin.liveHooks()).toEqual([
      "order_status_change=https://hooks.example.com/orders-2",
      "shipment_label_created=https://hooks.example.com/labels-2",
    ]);

    // `orders` moves to the explicit provider's process with a new URL: checked there, twice, by its own URN.
    project.write({
      "Pulumi.yaml": await program(
        "https://hooks.example.com/orders-3",
        "https://hooks.example.com/labels-2",
        "acme",
      ),
    });
    await project.ok(["up", "--yes"]);
    expect(plugin.liveHooks()).toEqual([
      "order_status_change=https://hooks.example.com/orders-3",
      "shipment_label_created=https://hooks.example.com/labels-2",
    ]);
    await project.ok(["destroy", "--yes"]);
    expect(plugin.liveHooks()).toEqual([]);
  });
});
