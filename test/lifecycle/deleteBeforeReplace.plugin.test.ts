/**
 * A `deleteBeforeReplace` URL change whose POST fails, under the provider plugin (a program of any language
 * declares `shipping:index:WebhookSubscription` by its type token; here TypeScript), through the official CLI:
 * the scenario of deleteFirstCreateFails.ts (deleteBeforeReplace.cli.test.ts runs it under the TypeScript
 * class).
 */
import { describe, it } from "vitest";
import { pluginProgram, pluginResource, usePluginSimulator } from "../support/pluginProject";
import { deleteFirstCreateFails, HOOK } from "./deleteFirstCreateFails";

/** The simulator of this file (reset before each test) and the plugin projects on it. */
const plugin = usePluginSimulator();

/** The labels resource at `url`, replaced delete-first. */
function program(url: string): string {
  return pluginProgram(
    pluginResource("labels", `hook: "${HOOK}", url: "${url}"`, "deleteBeforeReplace: true"),
  );
}

describe("under the provider plugin: deleteBeforeReplace, a URL change whose POST fails", () => {
  it("the next up refuses on the emptied shop, naming pulumi state delete; following it subscribes the hook", async () => {
    await deleteFirstCreateFails({
      acme: plugin,
      program,
      project: (name, source) => plugin.project(name, source, { secretKey: true }),
    });
  });
});
