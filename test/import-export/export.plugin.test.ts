/**
 * `npx pulumi-shipping-webhooks export --stack` on a stack whose subscriptions are the provider plugin's
 * resource (a program of any language, or a stack moved from the class with the type alias): it leaves out
 * what the stack records, as for the class's (export.cli.test.ts), so its output adds to the program.
 */
import { describe, expect, it } from "vitest";
import { PLUGIN_TYPE, pluginProgram, pluginResource, usePluginSimulator } from "../support/pluginProject";
import { runProcess } from "../support/process";
import { LABELS } from "../support/services";

const OURS = "https://hooks.example.com/labels";

const plugin = usePluginSimulator();

describe("export --stack, under the provider plugin", () => {
  it("leaves out what the stack records as the plugin's resource: nothing to declare again", async () => {
    const project = await plugin.project(
      "plugin-export",
      pluginProgram(pluginResource("labels", `hook: "${LABELS}", url: "${OURS}"`)),
      { secretKey: true },
    );
    await project.ok(["up", "--yes", "--skip-preview"]);
    const [sub] = (await project.resources()).filter((r) => r.type === PLUGIN_TYPE);
    expect(plugin.liveHooks()).toEqual([`${LABELS}=${OURS}`]);

    const run = await runProcess(
      "npx",
      ["--no-install", "pulumi-shipping-webhooks", "export", "--stack", "dev"],
      {
        cwd: project.dir,
        env: project.env,
        deadlineMs: 60_000,
      },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).not.toMatch(/new WebhookSubscription\(/);
    expect(run.stdout).toContain(`subscription ${sub?.id} (${LABELS}): stack dev records it as "labels"`);
  });
});
