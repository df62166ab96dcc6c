/**
 * A secret callback URL that breaks the URL rule, under the provider plugin (a YAML program, the URL from
 * secret stack config), through the official CLI: preview and up fail on the resource naming the rule, and
 * print neither the URL nor a corrected copy of it (the CLI masks a secret's own text, not a copy a message
 * makes). The TypeScript class's program hands its own refusal (secretUrl.engine.test.ts); the plugin's check
 * knows which inputs arrived secret.
 */
import { describe, expect, it } from "vitest";
import { PLUGIN_TYPE, usePluginSimulator, yamlPluginHead } from "../support/pluginProject";

/** A URL with a token in it that breaks the rule (an upper-case host). */
const TOKEN = "tok3ns3cretxyz";
const BAD_SECRET_URL = `https://Hooks.example.com/orders?token=${TOKEN}`;

const plugin = usePluginSimulator();

describe("under the provider plugin, a secret url that breaks the URL rule", () => {
  it("fails preview and up on the resource, naming the rule, never the URL or a corrected copy; nothing written", async () => {
    const head = await yamlPluginHead("yaml-secret-url");
    const program = `${head.slice(0, head.indexOf("plugins:"))}config:
  ordersUrl:
    type: string
    secret: true
${head.slice(head.indexOf("plugins:"))}  orders:
    type: ${PLUGIN_TYPE}
    properties:
      hook: order_status_change
      url: \${ordersUrl}
`;
    const project = await plugin.yamlProject("yaml-secret-url", program);
    await project.ok(["config", "set", "--secret", "ordersUrl", BAD_SECRET_URL]);
    for (const command of [["preview"], ["up", "--yes"]]) {
      const run = await project.pulumi(command);
      const printed = `${run.stdout}${run.stderr}`;
      expect(run.status, printed).not.toBe(0);
      expect(printed).toContain("the URL (a secret, not shown) must be lowercase");
      expect(printed).not.toContain(TOKEN);
      expect(printed.toLowerCase()).not.toContain("hooks.example.com/orders");
    }
    expect(plugin.writes()).toEqual([]);
  });
});
