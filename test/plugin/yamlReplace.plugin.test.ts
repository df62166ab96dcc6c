/**
 * A resource never conflicts with itself across the plugin's provider processes: the engine checks a replaced
 * resource twice (the second time without old inputs, with its URN), and a resource moved from the default
 * provider to an explicit one is checked by the other process; neither is a second declaration. Through the
 * official CLI and the YAML language host, judged by the simulator's live subscriptions.
 */
import { describe, expect, it } from "vitest";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { OfficialProject } from "../support/officialProject";
import { ACME_KEY } from "../support/shops";
import { liveHooks, PLUGIN_TYPE, pluginFolder } from "./pluginProject";

/** `orders` (through `ordersProvider`, or the default provider) and `labels` through the explicit provider. */
async function program(ordersUrl: string, labelsUrl: string, ordersProvider?: string): Promise<string> {
  return `name: yaml-replace
runtime: yaml
plugins:
  providers:
    - name: shipping
      path: ${await pluginFolder()}
config:
  simUrl:
    type: string
  explicitKey:
    type: string
    secret: true
resources:
  acme:
    type: pulumi:providers:shipping
    properties:
      baseUrl: \${simUrl}
      apiKey: \${explicitKey}
  orders:
    type: ${PLUGIN_TYPE}
    properties:
      hook: order_status_change
      url: ${ordersUrl}
${ordersProvider === undefined ? "" : `    options:\n      provider: \${${ordersProvider}}\n`}  labels:
    type: ${PLUGIN_TYPE}
    properties:
      hook: shipment_label_created
      url: ${labelsUrl}
    options:
      provider: \${acme}
`;
}

/** The simulator of this file, reset before each test. */
const acme = useAcmeSimulator();

describe("a YAML program whose resources are replaced and moved between the plugin's provider processes", () => {
  it("replaces both, then moves one to the explicit provider, with no refusal: a resource is no second of itself", async () => {
    const project = await OfficialProject.create("yaml-replace", {
      "Pulumi.yaml": await program("https://hooks.example.com/orders", "https://hooks.example.com/labels"),
    });
    await project.ok(["stack", "init", "dev"]);
    await project.ok(["config", "set", "shipping:baseUrl", acme.sim.baseUrl]);
    await project.ok(["config", "set", "--secret", "shipping:apiKey", ACME_KEY]);
    await project.ok(["config", "set", "simUrl", acme.sim.baseUrl]);
    await project.ok(["config", "set", "--secret", "explicitKey", ACME_KEY]);
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
    expect(liveHooks(acme.sim)).toEqual([
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
    expect(liveHooks(acme.sim)).toEqual([
      "order_status_change=https://hooks.example.com/orders-3",
      "shipment_label_created=https://hooks.example.com/labels-2",
    ]);
    await project.ok(["destroy", "--yes"]);
    expect(liveHooks(acme.sim)).toEqual([]);
  });
});
