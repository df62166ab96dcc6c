/**
 * A Pulumi YAML program (`runtime: yaml`, what many GitOps repositories are written in) using the provider
 * plugin, through the official CLI and the YAML language host (scripts/install-yaml-host.sh), against the
 * simulator, judged by the live subscriptions and the state: the default provider from stack config and an
 * explicit `pulumi:providers:shipping` for a second shop; preview writes nothing, up subscribes, refresh writes
 * nothing, `pulumi import` adopts a subscription made outside the stack with no write, destroy deletes what the
 * stack holds; no key in state.
 */
import { describe, expect, it } from "vitest";
import { ShippingClient } from "../../provider";
import { PLUGIN_TYPE, usePluginSimulator, yamlPluginHead, yamlResource } from "../support/pluginProject";
import { ACME_KEY, GLOBEX_KEY, leaksOf } from "../support/shops";

const LABELS_URL = "https://hooks.example.com/labels";
const GLOBEX_URL = "https://hooks.example.com/globex-orders";
const PARTNER_URL = "https://partner.example.net/orders";

/** The YAML program: `labels` in the default provider's shop, `globex-orders` through an explicit provider. */
async function program(extra = ""): Promise<string> {
  const head = await yamlPluginHead("yaml-hooks", { provider: "globex", keyName: "globexKey" });
  const labels = yamlResource("labels", "shipment_label_created", LABELS_URL);
  const globexOrders = yamlResource("globex-orders", "order_status_change", GLOBEX_URL, "globex");
  return `${head}${labels}${globexOrders}${extra}outputs:
  labelsId: \${labels.subscriptionId}
`;
}

/** The simulator of this file (reset before each test) and the plugin projects on it. */
const plugin = usePluginSimulator();

describe("a YAML program using the plugin", () => {
  it("previews, ups, refreshes, imports and destroys; default and explicit providers; no key in state", async () => {
    const project = await plugin.yamlProject("yaml-hooks", await program(), {
      explicitKey: { name: "globexKey", value: GLOBEX_KEY },
    });

    const preview = await project.ok(["preview"]);
    expect(preview.stdout).toMatch(/\+\s+shipping:index:WebhookSubscription labels create/);
    expect(preview.stdout).toMatch(/\+\s+shipping:index:WebhookSubscription globex-orders create/);
    expect(plugin.writes()).toEqual([]);

    await project.ok(["up", "--yes", "--skip-preview"]);
    expect(plugin.liveHooks()).toEqual([`shipment_label_created=${LABELS_URL}`]);
    expect(plugin.liveHooks("globex")).toEqual([`order_status_change=${GLOBEX_URL}`]);
    const labelsId = plugin.sim.subscriptions("acme")[0]?.id;
    const outputs = JSON.parse((await project.ok(["stack", "output", "--json"])).stdout) as Record<
      string,
      unknown
    >;
    expect(outputs.labelsId).toBe(labelsId);
    const exported = (await project.ok(["stack", "export"])).stdout;
    expect(leaksOf(ACME_KEY, exported)).toEqual([]);
    expect(leaksOf(GLOBEX_KEY, exported)).toEqual([]);

    plugin.sim.clearRequests();
    await project.ok(["refresh", "--yes", "--skip-preview"]);
    expect(plugin.writes()).toEqual([]);

    // A partner's subscription in the default shop, adopted by import: no write, and the printed YAML.
    const partner = new ShippingClient({ baseUrl: plugin.sim.baseUrl, apiKey: ACME_KEY });
    const [partnerId] = await partner.create([{ hook: "order_status_change", url: PARTNER_URL }]);
    await partner.close();
    plugin.sim.clearRequests();
    const imported = await project.ok(["import", PLUGIN_TYPE, "orders", String(partnerId), "--yes"]);
    // The declaration the import printed, copied into the program as it is (protected, as imports are).
    const printed = /\nresources:\n( {2}orders:\n(?: {4}.*\n)+)/.exec(imported.stdout)?.[1] ?? "";
    expect(printed).toContain(`url: ${PARTNER_URL}`);
    expect(printed).toContain("protect: true");
    project.write({ "Pulumi.yaml": await program(printed) });
    await project.ok(["up", "--yes", "--skip-preview", "--expect-no-changes"]);
    expect(plugin.writes()).toEqual([]);
    expect(plugin.liveHooks()).toEqual([
      `order_status_change=${PARTNER_URL}`,
      `shipment_label_created=${LABELS_URL}`,
    ]);

    // Unprotected (no write), then destroyed with the rest.
    project.write({ "Pulumi.yaml": await program(printed.replace(/ {4}options:\n {6}protect: true\n/, "")) });
    await project.ok(["up", "--yes", "--skip-preview"]);
    expect(plugin.writes()).toEqual([]);
    await project.ok(["destroy", "--yes", "--skip-preview"]);
    expect(plugin.liveHooks()).toEqual([]);
    expect(plugin.liveHooks("globex")).toEqual([]);
    expect(await project.resources()).toEqual([]);
  });
});

describe("a YAML program declaring one hook twice", () => {
  it("is refused at preview on the resource, naming the hook, with no API write", async () => {
    const twice = [
      await yamlPluginHead("yaml-twice"),
      yamlResource("first", "order_status_change", "https://hooks.example.com/first"),
      yamlResource("second", "order_status_change", "https://hooks.example.com/second"),
    ].join("");
    const project = await plugin.yamlProject("yaml-twice", twice, { secretKey: true });
    const preview = await project.pulumi(["preview"]);
    expect(preview.status).not.toBe(0);
    // Whichever the engine checks second is refused, naming the other.
    expect(preview.stdout).toMatch(
      /WebhookSubscription "(first|second)" declares hook order_status_change for shop \(default\), which WebhookSubscription "(second|first)" already declares/,
    );
    expect(plugin.writes()).toEqual([]);
    expect(plugin.liveHooks()).toEqual([]);
  });
});
