/**
 * A POST the service applies after the provider gave up, under the provider plugin (a program of any language
 * declares `shipping:index:WebhookSubscription` by its type token; here TypeScript), through the official CLI:
 * the scenario of postAppliedAfterGivingUp.ts (lateWrite.cli.test.ts runs it under the TypeScript class). The
 * plugin reads `SHIPPING_TIMEOUTS` from the environment the CLI starts it with, as the dynamic host does.
 */
import { describe, it } from "vitest";
import { pluginProgram, pluginResource, usePluginSimulator } from "../support/pluginProject";
import { HOOK, postAppliedAfterGivingUp } from "./postAppliedAfterGivingUp";

const PROGRAM = pluginProgram(`const config = new pulumi.Config();
${pluginResource("orders", `hook: "${HOOK}", url: config.require("url")`)}`);

/** The simulator of this file (reset before each test) and the plugin projects on it. */
const plugin = usePluginSimulator();

describe("under the provider plugin: a POST the service applies after the provider gave up", () => {
  it("is never sent again blind; what lands is recorded, follows the declared URL, and destroy leaves nothing", async () => {
    await postAppliedAfterGivingUp({
      acme: plugin,
      program: PROGRAM,
      project: (name, program) => plugin.project(name, program, { secretKey: true }),
    });
  });
});
