/**
 * A stack of the dynamic provider (`pulumi-shipping-webhooks`'s class) moved to the plugin's resource, through
 * the official CLI, judged by the live subscriptions, the simulator's writes and the state:
 * - with a type alias: no replacement and no API write; the state then holds the plugin's resource (same id)
 *   without the dynamic host's `__provider`, and the next preview has nothing to do;
 * - without the alias (the engine then creates the plugin's resource, which adopts the live subscription, and
 *   deletes the dynamic one in the dynamic host's process): the subscription is not lost.
 */
import { describe, expect, it } from "vitest";
import type { OfficialProject, StateResource } from "../support/officialProject";
import {
  DYNAMIC_TYPE,
  PLUGIN_TYPE,
  pluginProgram,
  pluginResource,
  usePluginSimulator,
} from "../support/pluginProject";
import { LABELS } from "../support/services";

const LABELS_URL = "https://hooks.example.com/labels";

const DYNAMIC_PROGRAM = `import { WebhookSubscription } from "pulumi-shipping-webhooks";

new WebhookSubscription("labels", { hook: "${LABELS}", url: "${LABELS_URL}" });
`;

/** The simulator of this file (reset before each test) and the plugin projects on it. */
const plugin = usePluginSimulator();

/** The stack's WebhookSubscriptions of either type. */
async function subscriptionsOf(project: OfficialProject): Promise<StateResource[]> {
  return (await project.resources()).filter((r) => r.type === PLUGIN_TYPE || r.type === DYNAMIC_TYPE);
}

/** A stack whose dynamic resource subscribed the labels hook. */
async function dynamicStack(name: string): Promise<{ project: OfficialProject; id: string | undefined }> {
  const project = await plugin.project(name, DYNAMIC_PROGRAM, { secretKey: true });
  await project.ok(["up", "--yes"]);
  const [recorded] = await subscriptionsOf(project);
  expect(recorded?.type).toBe(DYNAMIC_TYPE);
  expect(plugin.liveHooks()).toEqual([`${LABELS}=${LABELS_URL}`]);
  plugin.sim.clearRequests();
  return { project, id: recorded?.id };
}

describe("moving a stack from the dynamic resource to the plugin's", () => {
  it("with a type alias: no replacement, no write; the state is the plugin's, without __provider", async () => {
    const { project, id } = await dynamicStack("plugin-move-alias");
    project.write({
      "index.ts": pluginProgram(
        pluginResource(
          "labels",
          `hook: "${LABELS}", url: "${LABELS_URL}"`,
          `aliases: [{ type: "${DYNAMIC_TYPE}" }]`,
        ),
      ),
    });
    // An update that rewrites the state without the dynamic host's fields; nothing is replaced.
    const preview = await project.ok(["preview"]);
    expect(preview.stdout).toContain("~ 1 to update");
    expect(preview.stdout).not.toMatch(/to (create|delete|replace)/);
    await project.ok(["up", "--yes"]);
    expect(plugin.writes()).toEqual([]);
    expect(plugin.liveHooks()).toEqual([`${LABELS}=${LABELS_URL}`]);
    const [moved, ...others] = await subscriptionsOf(project);
    expect(others).toEqual([]);
    expect(moved?.type).toBe(PLUGIN_TYPE);
    expect(moved?.id).toBe(id);
    expect(Object.keys({ ...moved?.inputs, ...moved?.outputs }).filter((k) => k.startsWith("__"))).toEqual(
      [],
    );
    await project.ok(["preview", "--expect-no-changes"]);
    await project.ok(["destroy", "--yes"]);
    expect(plugin.liveHooks()).toEqual([]);
  });

  it("without the alias: the subscription is not lost", async () => {
    const { project, id } = await dynamicStack("plugin-move-no-alias");
    project.write({
      "index.ts": pluginProgram(pluginResource("labels", `hook: "${LABELS}", url: "${LABELS_URL}"`)),
    });
    // The engine creates the plugin's resource (it adopts the live subscription) and deletes the dynamic one,
    // whose delete finds the subscription claimed by a resource of this deployment and leaves it.
    await project.ok(["up", "--yes"]);
    expect(plugin.liveHooks()).toEqual([`${LABELS}=${LABELS_URL}`]);
    expect(plugin.writes()).toEqual([]);
    const [moved, ...others] = await subscriptionsOf(project);
    expect(others).toEqual([]);
    expect(moved?.type).toBe(PLUGIN_TYPE);
    expect(moved?.id).toBe(id);
    await project.ok(["preview", "--expect-no-changes"]);
    await project.ok(["destroy", "--yes"]);
    expect(plugin.liveHooks()).toEqual([]);
  });
});
