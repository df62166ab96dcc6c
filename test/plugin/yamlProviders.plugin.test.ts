/**
 * One hook per shop across the plugin's provider processes: a YAML program declaring one hook of one shop
 * through the default provider and again through an explicit `pulumi:providers:shipping` (two processes of the
 * plugin) is refused with the message of one process; preview and `up` write nothing; an `up` without its
 * preview never lets the two overwrite each other. Two keys of one shop are refused before the second write.
 * Through the official CLI and the YAML language host, judged by the simulator's live subscriptions.
 */
import { describe, expect, it } from "vitest";
import { ShippingClient } from "../../provider";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { OfficialProject } from "../support/officialProject";
import { ACME_KEY, ACME_SECOND_KEY, ACME_SHOP_ID } from "../support/shops";
import { liveHooks, PLUGIN_TYPE, pluginFolder, writesTo } from "./pluginProject";

const HOOK = "order_status_change";
const URLS = {
  orders: "https://hooks.example.com/orders",
  "orders-again": "https://hooks.example.com/orders-again",
};

/** `orders` through the default provider, `orders-again` through the explicit provider `acme` of `keyName`. */
async function program(): Promise<string> {
  return `name: yaml-providers
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
      hook: ${HOOK}
      url: ${URLS.orders}
  orders-again:
    type: ${PLUGIN_TYPE}
    properties:
      hook: ${HOOK}
      url: ${URLS["orders-again"]}
    options:
      provider: \${acme}
`;
}

/** The simulator of this file, reset before each test. */
const acme = useAcmeSimulator();

/** A stack of the program whose explicit provider has `explicitKey` (the default provider has acme's key). */
async function stack(name: string, explicitKey: string): Promise<OfficialProject> {
  const project = await OfficialProject.create(name, { "Pulumi.yaml": await program() });
  await project.ok(["stack", "init", "dev"]);
  await project.ok(["config", "set", "shipping:baseUrl", acme.sim.baseUrl]);
  await project.ok(["config", "set", "--secret", "shipping:apiKey", ACME_KEY]);
  await project.ok(["config", "set", "simUrl", acme.sim.baseUrl]);
  await project.ok(["config", "set", "--secret", "explicitKey", explicitKey]);
  return project;
}

/** The refusal of one process, naming the later of the two (whichever the engine checked second). */
const DECLARED_TWICE = new RegExp(
  `WebhookSubscription "(orders|orders-again)" declares hook ${HOOK} for shop \\(default\\), which WebhookSubscription "(orders-again|orders)" already declares`,
);

describe("a YAML program declaring one hook of one shop through the default and an explicit provider", () => {
  it("is refused at preview and at up with nothing written; up without preview never overwrites", async () => {
    const project = await stack("yaml-providers", ACME_KEY);

    const preview = await project.pulumi(["preview"]);
    expect(preview.status).not.toBe(0);
    expect(preview.stdout).toMatch(DECLARED_TWICE);
    const up = await project.pulumi(["up", "--yes"]);
    expect(up.status).not.toBe(0);
    expect(up.stdout).toMatch(DECLARED_TWICE);
    expect(writesTo(acme.sim)).toEqual([]);
    expect(liveHooks(acme.sim)).toEqual([]);

    // Without the preview, the engine may create the first before it checks the second: the second is refused
    // and the first's subscription stays as declared, never overwritten by the second.
    const skipped = await project.pulumi(["up", "--yes", "--skip-preview"]);
    expect(skipped.status).not.toBe(0);
    const [, refused, first] = DECLARED_TWICE.exec(skipped.stdout) ?? [];
    expect(refused).toBeDefined();
    expect(liveHooks(acme.sim)).toEqual(
      liveHooks(acme.sim).length === 0 ? [] : [`${HOOK}=${URLS[first as keyof typeof URLS]}`],
    );
    expect((await project.resources()).map((r) => r.urn)).not.toContainEqual(
      expect.stringMatching(new RegExp(`::${refused}$`)),
    );
  });
});

describe("a YAML program declaring one hook through two keys of one shop in two provider processes", () => {
  it("is refused at preview, and at up before the second write: the shop keeps at most the first", async () => {
    const project = await stack("yaml-two-keys", ACME_SECOND_KEY);
    // A subscription of another hook, so that each key's listing names the shop (the service's shop_id).
    const partner = new ShippingClient({ baseUrl: acme.sim.baseUrl, apiKey: ACME_KEY });
    await partner.create([{ hook: "shipment_label_created", url: "https://partner.example.net/labels" }]);
    await partner.close();
    acme.sim.clearRequests();
    // The message of one process: the two keys reach one shop, as the service reports it.
    const refusal = new RegExp(
      `resource '(orders|orders-again)': property hook value \\{${HOOK}\\} has a problem: ${HOOK} is declared twice for shop ${ACME_SHOP_ID} at [^ ]+: shop \\(default\\) and another shop entry of this stack are the same shop`,
    );

    const preview = await project.pulumi(["preview"]);
    expect(preview.status).not.toBe(0);
    expect(preview.stdout).toMatch(refusal);
    expect(writesTo(acme.sim)).toEqual([]);

    const up = await project.pulumi(["up", "--yes", "--skip-preview"]);
    expect(up.status).not.toBe(0);
    const refused = refusal.exec(up.stdout)?.[1] as keyof typeof URLS | undefined;
    expect(refused).toBeDefined();
    const other = refused === "orders" ? "orders-again" : "orders";
    const live = acme.sim.subscriptions("acme").filter((s) => s.hook === HOOK);
    expect(live.map((s) => s.url)).toEqual(live.length === 0 ? [] : [URLS[other]]);
    expect(writesTo(acme.sim).filter((w) => w.startsWith("POST"))).toHaveLength(live.length);
    const recorded = (await project.resources()).filter((r) => r.type === PLUGIN_TYPE);
    expect(recorded.map((r) => r.urn.slice(r.urn.lastIndexOf("::") + 2))).toEqual(
      live.length === 0 ? [] : [other],
    );
  });
});
