/**
 * One hook per shop across the plugin's provider processes: a YAML program declaring one hook of one shop
 * through the default provider and again through an explicit `pulumi:providers:shipping` (two processes of the
 * plugin) is refused with the message of one process; preview and `up` write nothing; an `up` without its
 * preview never lets the two overwrite each other. Two keys of one shop are refused before the second write.
 * Through the official CLI and the YAML language host, judged by the simulator's live subscriptions.
 */
import { describe, expect, it } from "vitest";
import { ShippingClient } from "../../provider";
import type { OfficialProject } from "../support/officialProject";
import { PLUGIN_TYPE, usePluginSimulator, yamlPluginHead, yamlResource } from "../support/pluginProject";
import { ACME_KEY, ACME_SECOND_KEY, ACME_SHOP_ID } from "../support/shops";

const HOOK = "order_status_change";
const URLS = {
  orders: "https://hooks.example.com/orders",
  "orders-again": "https://hooks.example.com/orders-again",
};

/** `orders` through the default provider, `orders-again` through the explicit provider `acme` of `keyName`. */
async function program(): Promise<string> {
  const head = await yamlPluginHead("yaml-providers", { provider: "acme", keyName: "explicitKey" });
  const orders = yamlResource("orders", HOOK, URLS.orders);
  return `${head}${orders}${yamlResource("orders-again", HOOK, URLS["orders-again"], "acme")}`;
}

/** The simulator of this file (reset before each test) and the plugin projects on it. */
const plugin = usePluginSimulator();

/** A stack of the program whose explicit provider has `explicitKey` (the default provider has acme's key). */
async function stack(name: string, explicitKey: string): Promise<OfficialProject> {
  return plugin.yamlProject(name, await program(), {
    secretKey: true,
    explicitKey: { name: "explicitKey", value: explicitKey },
  });
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
    expect(plugin.writes()).toEqual([]);
    expect(plugin.liveHooks()).toEqual([]);

    // Without the preview, the engine may create the first before it checks the second: the second is refused
    // and the first's subscription stays as declared, never overwritten by the second.
    const skipped = await project.pulumi(["up", "--yes", "--skip-preview"]);
    expect(skipped.status).not.toBe(0);
    const [, refused, first] = DECLARED_TWICE.exec(skipped.stdout) ?? [];
    expect(refused).toBeDefined();
    expect(plugin.liveHooks()).toEqual(
      plugin.liveHooks().length === 0 ? [] : [`${HOOK}=${URLS[first as keyof typeof URLS]}`],
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
    const partner = new ShippingClient({ baseUrl: plugin.sim.baseUrl, apiKey: ACME_KEY });
    await partner.create([{ hook: "shipment_label_created", url: "https://partner.example.net/labels" }]);
    await partner.close();
    plugin.sim.clearRequests();
    // The message of one process: the two keys reach one shop, as the service reports it.
    const refusal = new RegExp(
      `resource '(orders|orders-again)': property hook value \\{${HOOK}\\} has a problem: ${HOOK} is declared twice for shop ${ACME_SHOP_ID} at [^ ]+: shop \\(default\\) and another shop entry of this stack are the same shop`,
    );

    const preview = await project.pulumi(["preview"]);
    expect(preview.status).not.toBe(0);
    expect(preview.stdout).toMatch(refusal);
    expect(plugin.writes()).toEqual([]);

    const up = await project.pulumi(["up", "--yes", "--skip-preview"]);
    expect(up.status).not.toBe(0);
    const refused = refusal.exec(up.stdout)?.[1] as keyof typeof URLS | undefined;
    expect(refused).toBeDefined();
    const other = refused === "orders" ? "orders-again" : "orders";
    const live = plugin.sim.subscriptions("acme").filter((s) => s.hook === HOOK);
    expect(live.map((s) => s.url)).toEqual(live.length === 0 ? [] : [URLS[other]]);
    expect(plugin.writes().filter((w) => w.startsWith("POST"))).toHaveLength(live.length);
    const recorded = (await project.resources()).filter((r) => r.type === PLUGIN_TYPE);
    expect(recorded.map((r) => r.urn.slice(r.urn.lastIndexOf("::") + 2))).toEqual(
      live.length === 0 ? [] : [other],
    );
  });
});
