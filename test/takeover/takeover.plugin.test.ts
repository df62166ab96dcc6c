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
  PLUGIN_TYPE,
  pluginProgram,
  pluginResource,
  usePluginSimulator,
} from "../support/pluginProject";
import { LABELS } from "../support/services";
import { ACME_KEY, leaksOf } from "../support/shops";

const OURS = "https://hooks.example.com/labels";
const PARTNER_URL = "https://partner.example.net/labels-callback";

/** The simulator of this file (reset before each test) and the plugin projects on it. */
const plugin = usePluginSimulator();

/** A program of one labels resource, `name`, at `url`, with `extra` arguments (source text). */
function labels(name: string, url = OURS, extra = ""): string {
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

describe("under the provider plugin: up --continue-on-error, a rename without an alias", () => {
  it.each([
    ["its URL changed, takeOver, its POST answered 500", `${OURS}-v2`, { method: "POST" }],
    // Under the plugin a new resource's check lists the shop twice (one hook per shop across the deployment's
    // processes, then the takeover rule), each failure left to the create; the third listing is the create's
    // own, with which it would adopt the live subscription.
    [
      "its URL kept, the shop's listings through its create answered 500",
      OURS,
      { method: "GET", listing: true },
    ],
  ] as const)(
    "%s: the old one's delete keeps the hook subscribed; the next up finishes the rename",
    async (_name, url, failing) => {
      const project = await plugin.project("plugin-continue", labels("labels"));
      await project.ok(["up", "--yes"]);
      const [before] = plugin.sim.subscriptions("acme");

      project.write({ "index.ts": labels("labels-renamed", url, url === OURS ? "" : ", takeOver: true") });
      plugin.sim.addFault({
        kind: "status",
        status: 500,
        method: failing.method,
        ...(failing.method === "GET" ? { request: "listing" as const, count: 3 } : { count: 20 }),
      });
      const up = await project.pulumi(["up", "--yes", "--skip-preview", "--continue-on-error"]);
      plugin.sim.clearFaults();
      expect(up.stdout).toMatch(/labels-renamed \*\*creating failed\*\*/);
      expect(up.stdout).toMatch(
        /not deleting subscription \d+ \(shipment_label_created\) of the default shop/,
      );
      expect(plugin.sim.subscriptions("acme")).toEqual([before]);
      expect(await recorded(project)).toEqual([`labels=${before?.id}`]);

      await project.ok(["up", "--yes", "--skip-preview"]);
      expect(plugin.liveHooks()).toEqual([`${LABELS}=${url}`]);
      const [renamed] = plugin.sim.subscriptions("acme");
      expect(await recorded(project)).toEqual([`labels-renamed=${renamed?.id}`]);
    },
  );
});

/** The labels resource through the dynamic host: the package's class. */
const DYNAMIC_LABELS = `import { WebhookSubscription } from "pulumi-shipping-webhooks";

new WebhookSubscription("labels", { hook: "${LABELS}", url: "${OURS}" });
`;

/** The plugin's resource `name` through an explicit provider of the stack's own settings. */
function explicitLabels(name: string, url: string, extra: string): string {
  return pluginProgram(`const config = new pulumi.Config("shipping");
class Provider extends pulumi.ProviderResource {
  constructor(name: string, args: pulumi.Inputs) {
    super("shipping", name, args);
  }
}
const explicit = new Provider("explicit", {
  baseUrl: config.require("baseUrl"),
  apiKey: config.requireSecret("apiKey"),
});
${pluginResource(name, `hook: "${LABELS}", url: "${url}"${extra}`, "provider: explicit")}`);
}

describe("under both hosts: up --continue-on-error, a rename without an alias into another provider process", () => {
  it.each([
    ["from the dynamic host's class to the plugin's resource", DYNAMIC_LABELS, labels],
    ["from the plugin's default provider to an explicit one", labels("labels"), explicitLabels],
  ] as const)(
    "%s, its URL changed, its POST answered 500: the old one's delete keeps the hook; the next up finishes",
    async (_name, before, renamed) => {
      const project = await plugin.project("plugin-move-continue", before, { secretKey: true });
      await project.ok(["up", "--yes"]);
      const [live] = plugin.sim.subscriptions("acme");

      project.write({ "index.ts": renamed("labels-renamed", `${OURS}-v2`, ", takeOver: true") });
      plugin.sim.addFault({ kind: "status", status: 500, method: "POST", count: 20 });
      const up = await project.pulumi(["up", "--yes", "--skip-preview", "--continue-on-error"]);
      plugin.sim.clearFaults();
      expect(up.stdout).toMatch(/labels-renamed \*\*creating failed\*\*/);
      expect(up.stdout).toMatch(
        /not deleting subscription \d+ \(shipment_label_created\) of the default shop/,
      );
      expect(plugin.sim.subscriptions("acme")).toEqual([live]);
      expect(await recorded(project)).toEqual([`labels=${live?.id}`]);

      await project.ok(["up", "--yes", "--skip-preview"]);
      expect(plugin.liveHooks()).toEqual([`${LABELS}=${OURS}-v2`]);
      const [now] = plugin.sim.subscriptions("acme");
      expect(await recorded(project)).toEqual([`labels-renamed=${now?.id}`]);
    },
  );
});
