/**
 * One hook per shop across the two hosts of one program: a hook declared through the package's TypeScript
 * class (the dynamic provider) and again through the plugin's resource (`shipping:index:WebhookSubscription`,
 * as a Go or YAML program declares it) is refused, through the official CLI in a project folder, judged by the
 * live subscriptions and the state. The two run in two provider processes; without the refusal each would
 * create and the second POST overwrite the first. So is a new plugin resource of an explicit provider with
 * another key of the shop, while the class's resource of the hook is unchanged: it keeps its subscription in
 * the other process, so the new one may not adopt or overwrite it, even with `takeOver: true`.
 */
import { describe, expect, it } from "vitest";
import type { OfficialProject } from "../support/officialProject";
import {
  DYNAMIC_TYPE,
  explicitProviderSource,
  PLUGIN_TYPE,
  pluginResource,
  usePluginSimulator,
} from "../support/pluginProject";
import { LABELS, ORDERS } from "../support/services";
import { ACME_SECOND_KEY } from "../support/shops";

const CLASS_URL = "https://hooks.example.com/labels-class";
const PLUGIN_URL = "https://hooks.example.com/labels-plugin";

/** The simulator of this file (reset before each test) and the plugin projects on it. */
const plugin = usePluginSimulator();

/** A program with the class's resource of `classHook` and the plugin's resource of labels. */
function bothHosts(classHook: string): string {
  return `import * as pulumi from "@pulumi/pulumi";
import { WebhookSubscription } from "pulumi-shipping-webhooks";

class Subscription extends pulumi.CustomResource {
  constructor(name: string, args: pulumi.Inputs, opts?: pulumi.CustomResourceOptions) {
    super("${PLUGIN_TYPE}", name, args, opts);
  }
}

new WebhookSubscription("labels-class", { hook: "${classHook}", url: "${CLASS_URL}" });
${pluginResource("labels-plugin", `hook: "${LABELS}", url: "${PLUGIN_URL}"`)}`;
}

const DECLARED_TWICE =
  /hook shipment_label_created of shop \(default\) is declared twice: by a WebhookSubscription of the package's TypeScript class \(the dynamic provider\) and by the plugin's resource "labels-plugin"/;

/** The stack's WebhookSubscriptions of either host, as `type name`. */
async function recorded(project: OfficialProject): Promise<string[]> {
  return (await project.resources())
    .filter((r) => r.type === PLUGIN_TYPE || r.type === DYNAMIC_TYPE)
    .map((r) => `${r.type === PLUGIN_TYPE ? "plugin" : "class"} ${r.urn.split("::").pop()}`)
    .sort();
}

describe("one hook of one shop declared through the TypeScript class and through the plugin's resource", () => {
  it("is refused at preview and at up with nothing written; up without preview never lets them overwrite", async () => {
    const project = await plugin.project("both-hosts", bothHosts(LABELS), { secretKey: true });

    for (const args of [["preview"], ["up", "--yes"]]) {
      const run = await project.pulumi(args);
      expect(run.status).not.toBe(0);
      expect(run.stdout).toMatch(DECLARED_TWICE);
    }
    expect(plugin.writes()).toEqual([]);
    expect(plugin.liveHooks()).toEqual([]);

    // Without the preview the engine may create the first before it checks the second: the second is refused,
    // and the shop keeps the first's subscription, the one its resource records.
    const skipped = await project.pulumi(["up", "--yes", "--skip-preview"]);
    expect(skipped.status).not.toBe(0);
    expect(skipped.stdout).toMatch(DECLARED_TWICE);
    const kept = await recorded(project);
    expect(kept.length).toBeLessThanOrEqual(1);
    const expected = { "class labels-class": CLASS_URL, "plugin labels-plugin": PLUGIN_URL };
    expect(plugin.liveHooks()).toEqual(kept.map((r) => `${LABELS}=${expected[r as keyof typeof expected]}`));
  });

  it("two hooks, one through each host, both deploy and destroy", async () => {
    const project = await plugin.project("both-hosts-ok", bothHosts(ORDERS), { secretKey: true });
    await project.ok(["up", "--yes"]);
    expect(plugin.liveHooks()).toEqual([`${ORDERS}=${CLASS_URL}`, `${LABELS}=${PLUGIN_URL}`]);
    expect(await recorded(project)).toEqual(["class labels-class", "plugin labels-plugin"]);
    await project.ok(["preview", "--expect-no-changes"]);
    await project.ok(["destroy", "--yes"]);
    expect(plugin.liveHooks()).toEqual([]);
  });
});

/**
 * The class's labels resource (the default provider's key), and, with `second`, the plugin's labels resource
 * of an explicit provider with a second key of the same shop (stack config `other:key`), opting in to overwrite.
 * The second depends on the first, so the engine checks the first (which keeps its subscription) first; in the
 * other order the second's check cannot know it yet, and a create that reaches the shop first would overwrite it
 * (docs/safety.md, "One hook per shop").
 */
function classAndSecondKey(second: boolean): string {
  const explicit = `${explicitProviderSource("other:key")}${pluginResource("labels-second", `hook: "${LABELS}", url: "${PLUGIN_URL}", takeOver: true`, "provider: explicit, dependsOn: [kept]")}`;
  return `${bothHosts(ORDERS).split("new WebhookSubscription")[0]}const kept = new WebhookSubscription("labels-class", { hook: "${LABELS}", url: "${CLASS_URL}" });
${second ? explicit : ""}`;
}

describe("a hook the class's resource keeps unchanged, and a plugin resource of it under another key of the shop", () => {
  it.each(["listed", "omitted"] as const)(
    "shop_id %s: preview, up and up without preview refuse the new one, even with takeOver; the kept subscription stays",
    async (shopFields) => {
      plugin.sim.setSwitches({ shopFields });
      const project = await plugin.project(`kept-${shopFields}`, classAndSecondKey(false), {
        secretKey: true,
      });
      await project.ok(["config", "set", "--secret", "other:key", ACME_SECOND_KEY]);
      await project.ok(["up", "--yes"]);
      const [kept] = plugin.sim.subscriptions("acme");
      plugin.sim.clearRequests();

      project.write({ "index.ts": classAndSecondKey(true) });
      for (const args of [["preview"], ["up", "--yes"], ["up", "--yes", "--skip-preview"]]) {
        const run = await project.pulumi(args);
        expect(run.status).not.toBe(0);
        expect(run.stdout).toMatch(
          // Listed: the service names one shop for both keys; omitted: the other process keeps the live id.
          shopFields === "listed"
            ? /labels-second.*\n.*shipment_label_created is declared twice for shop 1 .* are the same shop/
            : /labels-second.*\n.*shipment_label_created is declared twice for the default shop: another resource of this stack keeps subscription/,
        );
      }
      expect(plugin.writes()).toEqual([]);
      expect(plugin.sim.subscriptions("acme")).toEqual([kept]);
      expect(await recorded(project)).toEqual(["class labels-class"]);
    },
  );
});
