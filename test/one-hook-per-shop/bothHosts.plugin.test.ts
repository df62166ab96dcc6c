/**
 * One hook per shop across the two hosts of one program: a hook declared through the package's TypeScript
 * class (the dynamic provider) and again through the plugin's resource (`shipping:index:WebhookSubscription`,
 * as a Go or YAML program declares it) is refused, through the official CLI in a project folder, judged by the
 * live subscriptions and the state. The two run in two provider processes; without the refusal each would
 * create and the second POST overwrite the first.
 */
import { describe, expect, it } from "vitest";
import type { OfficialProject } from "../support/officialProject";
import { DYNAMIC_TYPE, PLUGIN_TYPE, pluginResource, usePluginSimulator } from "../support/pluginProject";
import { LABELS, ORDERS } from "../support/services";

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
