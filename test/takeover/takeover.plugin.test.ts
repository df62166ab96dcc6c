/**
 * The ownership guarantees of takeover.cli.test.ts under the other host, the provider plugin (a program of
 * any language declares `shipping:index:WebhookSubscription` by its type token; here TypeScript), through the
 * official CLI in a project folder, judged by the live subscriptions and the state:
 * - a partner's subscription of a declared hook is refused at preview and up, naming the hook and the id, never
 *   the URL, until the resource opts in with `takeOver: true`;
 * - `up --continue-on-error` never unsubscribes a hook that a renamed resource (no alias) declares, with its URL
 *   changed or kept, when the new resource's create fails; the next `up` finishes the rename. This holds too
 *   when the rename also moves the resource to another provider process of the deployment (from the dynamic
 *   host's class to the plugin's resource, or to an explicit `pulumi:providers:shipping`).
 */
import { describe, expect, it } from "vitest";
import { ShippingClient } from "../../provider";
import type { OfficialProject } from "../support/officialProject";
import {
  DYNAMIC_TYPE,
  explicitProviderSource,
  PLUGIN_TYPE,
  pluginProgram,
  pluginResource,
  usePluginSimulator,
} from "../support/pluginProject";
import { LABELS } from "../support/services";
import { ACME_KEY, ACME_SECOND_KEY, leaksOf } from "../support/shops";

const OURS = "https://hooks.example.com/labels";
const PARTNER_URL = "https://partner.example.net/labels-callback";

/** The simulator of this file (reset before each test) and the plugin projects on it. */
const plugin = usePluginSimulator();

/** A program of one labels resource, `name`, at `url`, with `extra` arguments (source text). */
function labels(name: string, url: string = OURS, extra = ""): string {
  return pluginProgram(pluginResource(name, `hook: "${LABELS}", url: "${url}"${extra}`));
}

/** The WebhookSubscriptions the stack records (the plugin's, or the dynamic class's), as `name=id`. */
async function recorded(project: OfficialProject): Promise<string[]> {
  return (await project.resources())
    .filter((r) => r.type === PLUGIN_TYPE || r.type === DYNAMIC_TYPE)
    .map((r) => `${r.urn.split("::").pop()}=${r.id}`);
}

describe("under the provider plugin: a partner's subscription", () => {
  it("is refused by preview and up, naming the hook and the id, not the URL; takeOver: true overwrites it", async () => {
    const client = new ShippingClient({ baseUrl: plugin.sim.baseUrl, apiKey: ACME_KEY });
    await client.create([{ hook: LABELS, url: PARTNER_URL }]);
    await client.close();
    const [partner] = plugin.sim.subscriptions("acme");
    plugin.sim.clearRequests();
    const project = await plugin.project("plugin-takeover", labels("labels"));

    for (const args of [["preview"], ["up", "--yes"]]) {
      const run = await project.pulumi(args);
      expect(run.status).not.toBe(0);
      expect(run.stdout).toContain(`already has subscription ${partner?.id}`);
      expect(run.stdout).toContain(LABELS);
      expect(leaksOf(PARTNER_URL, run.stdout + run.stderr)).toEqual([]);
    }
    expect(plugin.writes()).toEqual([]);
    expect(plugin.liveHooks()).toEqual([`${LABELS}=${PARTNER_URL}`]);

    project.write({ "index.ts": labels("labels", OURS, ", takeOver: true") });
    await project.ok(["up", "--yes"]);
    expect(plugin.liveHooks()).toEqual([`${LABELS}=${OURS}`]);
    const [resource] = (await project.resources()).filter((r) => r.type === PLUGIN_TYPE);
    expect(resource?.outputs?.takenOver).toBe(partner?.id);
  });
});

/** The labels resource through the dynamic host: the package's class. */
const DYNAMIC_LABELS = `import { WebhookSubscription } from "pulumi-shipping-webhooks";

new WebhookSubscription("labels", { hook: "${LABELS}", url: "${OURS}" });
`;

/**
 * The plugin's resource `name` through an explicit provider of the stack's base URL and the key `key` names in
 * stack config: the default provider's own (`shipping:apiKey`), or a second key of the same shop, configured
 * in no other provider process (`other:key`).
 */
function explicitLabels(key: "shipping:apiKey" | "other:key") {
  return (resource: string, url: string, extra: string): string =>
    pluginProgram(
      `${explicitProviderSource(key)}${pluginResource(resource, `hook: "${LABELS}", url: "${url}"${extra}`, "provider: explicit")}`,
    );
}

/** A 500 on the next POSTs; or on the shop's listings through the new resource's create. */
const POST_FAILS = { kind: "status", status: 500, method: "POST", count: 20 } as const;
const LISTINGS_FAIL = { kind: "status", status: 500, method: "GET", request: "listing", count: 3 } as const;

describe("up --continue-on-error, a rename without an alias whose new resource's create fails", () => {
  it.each([
    [
      "under the plugin, its URL changed, takeOver, its POST answered 500",
      labels("labels"),
      labels,
      `${OURS}-v2`,
      POST_FAILS,
    ],
    // Under the plugin a new resource's check lists the shop twice (one hook per shop across the deployment's
    // processes, then the takeover rule), each failure left to the create; the third listing is the create's
    // own, with which it would adopt the live subscription.
    [
      "under the plugin, its URL kept, the shop's listings through its create answered 500",
      labels("labels"),
      labels,
      OURS,
      LISTINGS_FAIL,
    ],
    // The rename also moves the resource to another provider process of the deployment.
    [
      "from the dynamic host's class to the plugin's resource, its URL changed, its POST answered 500",
      DYNAMIC_LABELS,
      labels,
      `${OURS}-v2`,
      POST_FAILS,
    ],
    [
      "from the plugin's default provider to an explicit one, its URL changed, its POST answered 500",
      labels("labels"),
      explicitLabels("shipping:apiKey"),
      `${OURS}-v2`,
      POST_FAILS,
    ],
    // ... whose key is a second key of the shop, configured in no other process: the old one's process places
    // the new one's declaration by the shop the service named for it, or by its create failing unplaced.
    [
      "from the plugin's default provider to an explicit one with another key of the shop, its URL changed, its POST answered 500",
      labels("labels"),
      explicitLabels("other:key"),
      `${OURS}-v2`,
      POST_FAILS,
    ],
    [
      "from the dynamic host's class to an explicit provider with another key of the shop, its URL kept, its listings answered 500",
      DYNAMIC_LABELS,
      explicitLabels("other:key"),
      OURS,
      LISTINGS_FAIL,
    ],
  ] as const)(
    "%s: the old one's delete keeps the hook subscribed; the next up finishes the rename",
    async (_name, before, renamed, url, fault) => {
      const project = await plugin.project("plugin-continue", before, { secretKey: true });
      await project.ok(["config", "set", "--secret", "other:key", ACME_SECOND_KEY]);
      await project.ok(["up", "--yes"]);
      const [live] = plugin.sim.subscriptions("acme");

      project.write({ "index.ts": renamed("labels-renamed", url, url === OURS ? "" : ", takeOver: true") });
      plugin.sim.addFault(fault);
      const up = await project.pulumi(["up", "--yes", "--skip-preview", "--continue-on-error"]);
      plugin.sim.clearFaults();
      expect(up.stdout).toMatch(/labels-renamed \*\*creating failed\*\*/);
      expect(up.stdout).toMatch(
        /not deleting subscription \d+ \(shipment_label_created\) of the default shop/,
      );
      expect(plugin.sim.subscriptions("acme")).toEqual([live]);
      expect(await recorded(project)).toEqual([`labels=${live?.id}`]);

      await project.ok(["up", "--yes", "--skip-preview"]);
      expect(plugin.liveHooks()).toEqual([`${LABELS}=${url}`]);
      const [now] = plugin.sim.subscriptions("acme");
      expect(await recorded(project)).toEqual([`labels-renamed=${now?.id}`]);
    },
  );
});
