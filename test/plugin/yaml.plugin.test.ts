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
import { useAcmeSimulator } from "../support/acmeSimulator";
import { OfficialProject } from "../support/officialProject";
import { ACME_KEY, GLOBEX_KEY, leaksOf } from "../support/shops";
import { liveHooks, PLUGIN_TYPE, pluginFolder, writesTo } from "./pluginProject";

const LABELS_URL = "https://hooks.example.com/labels";
const GLOBEX_URL = "https://hooks.example.com/globex-orders";
const PARTNER_URL = "https://partner.example.net/orders";

/** The YAML program: `labels` in the default provider's shop, `globex-orders` through an explicit provider. */
async function program(extra = ""): Promise<string> {
  return `name: yaml-hooks
runtime: yaml
plugins:
  providers:
    - name: shipping
      path: ${await pluginFolder()}
config:
  simUrl:
    type: string
  globexKey:
    type: string
    secret: true
resources:
  globex:
    type: pulumi:providers:shipping
    properties:
      baseUrl: \${simUrl}
      apiKey: \${globexKey}
  labels:
    type: ${PLUGIN_TYPE}
    properties:
      hook: shipment_label_created
      url: ${LABELS_URL}
  globex-orders:
    type: ${PLUGIN_TYPE}
    properties:
      hook: order_status_change
      url: ${GLOBEX_URL}
    options:
      provider: \${globex}
${extra}outputs:
  labelsId: \${labels.subscriptionId}
`;
}

/** The simulator of this file, reset before each test. */
const acme = useAcmeSimulator();

describe("a YAML program using the plugin", () => {
  it("previews, ups, refreshes, imports and destroys; default and explicit providers; no key in state", async () => {
    const project = await OfficialProject.create("yaml-hooks", { "Pulumi.yaml": await program() });
    await project.ok(["stack", "init", "dev"]);
    await project.ok(["config", "set", "shipping:baseUrl", acme.sim.baseUrl]);
    await project.ok(["config", "set", "shipping:apiKey", ACME_KEY]);
    await project.ok(["config", "set", "simUrl", acme.sim.baseUrl]);
    await project.ok(["config", "set", "--secret", "globexKey", GLOBEX_KEY]);

    const preview = await project.ok(["preview"]);
    expect(preview.stdout).toMatch(/\+\s+shipping:index:WebhookSubscription labels create/);
    expect(preview.stdout).toMatch(/\+\s+shipping:index:WebhookSubscription globex-orders create/);
    expect(writesTo(acme.sim)).toEqual([]);

    await project.ok(["up", "--yes", "--skip-preview"]);
    expect(liveHooks(acme.sim)).toEqual([`shipment_label_created=${LABELS_URL}`]);
    expect(liveHooks(acme.sim, "globex")).toEqual([`order_status_change=${GLOBEX_URL}`]);
    const labelsId = acme.sim.subscriptions("acme")[0]?.id;
    const outputs = JSON.parse((await project.ok(["stack", "output", "--json"])).stdout) as Record<
      string,
      unknown
    >;
    expect(outputs.labelsId).toBe(labelsId);
    const exported = (await project.ok(["stack", "export"])).stdout;
    expect(leaksOf(ACME_KEY, exported)).toEqual([]);
    expect(leaksOf(GLOBEX_KEY, exported)).toEqual([]);

    acme.sim.clearRequests();
    await project.ok(["refresh", "--yes", "--skip-preview"]);
    expect(writesTo(acme.sim)).toEqual([]);

    // A partner's subscription in the default shop, adopted by import: no write, and the printed YAML.
    const partner = new ShippingClient({ baseUrl: acme.sim.baseUrl, apiKey: ACME_KEY });
    const [partnerId] = await partner.create([{ hook: "order_status_change", url: PARTNER_URL }]);
    await partner.close();
    acme.sim.clearRequests();
    const imported = await project.ok(["import", PLUGIN_TYPE, "orders", String(partnerId), "--yes"]);
    // The declaration the import printed, copied into the program as it is (protected, as imports are).
    const printed = /\nresources:\n( {2}orders:\n(?: {4}.*\n)+)/.exec(imported.stdout)?.[1] ?? "";
    expect(printed).toContain(`url: ${PARTNER_URL}`);
    expect(printed).toContain("protect: true");
    project.write({ "Pulumi.yaml": await program(printed) });
    await project.ok(["up", "--yes", "--skip-preview", "--expect-no-changes"]);
    expect(writesTo(acme.sim)).toEqual([]);
    expect(liveHooks(acme.sim)).toEqual([
      `order_status_change=${PARTNER_URL}`,
      `shipment_label_created=${LABELS_URL}`,
    ]);

    // Unprotected (no write), then destroyed with the rest.
    project.write({ "Pulumi.yaml": await program(printed.replace(/ {4}options:\n {6}protect: true\n/, "")) });
    await project.ok(["up", "--yes", "--skip-preview"]);
    expect(writesTo(acme.sim)).toEqual([]);
    await project.ok(["destroy", "--yes", "--skip-preview"]);
    expect(liveHooks(acme.sim)).toEqual([]);
    expect(liveHooks(acme.sim, "globex")).toEqual([]);
    expect(await project.resources()).toEqual([]);
  });
});

describe("a YAML program declaring one hook twice", () => {
  it("is refused at preview on the resource, naming the hook, with no API write", async () => {
    const twice = `name: yaml-twice
runtime: yaml
plugins:
  providers:
    - name: shipping
      path: ${await pluginFolder()}
resources:
  first:
    type: ${PLUGIN_TYPE}
    properties:
      hook: order_status_change
      url: https://hooks.example.com/first
  second:
    type: ${PLUGIN_TYPE}
    properties:
      hook: order_status_change
      url: https://hooks.example.com/second
`;
    const project = await OfficialProject.create("yaml-twice", { "Pulumi.yaml": twice });
    await project.ok(["stack", "init", "dev"]);
    await project.ok(["config", "set", "shipping:baseUrl", acme.sim.baseUrl]);
    await project.ok(["config", "set", "--secret", "shipping:apiKey", ACME_KEY]);
    const preview = await project.pulumi(["preview"]);
    expect(preview.status).not.toBe(0);
    // Whichever the engine checks second is refused, naming the other.
    expect(preview.stdout).toMatch(
      /WebhookSubscription "(first|second)" declares hook order_status_change for shop \(default\), which WebhookSubscription "(second|first)" already declares/,
    );
    expect(writesTo(acme.sim)).toEqual([]);
    expect(liveHooks(acme.sim)).toEqual([]);
  });
});
