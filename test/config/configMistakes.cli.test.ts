/**
 * Config mistakes that passed silently or landed on the wrong resource (issue 34), through the official CLI:
 * a key under `shipping:` that is no setting (`shipping:shopID`) fails preview and up naming it and the setting
 * it most likely means, before anything is written; a misspelled key in globex's entry of `shipping:shops`
 * fails globex's resource, in our words, and acme's resource previews and deploys as if nothing were wrong.
 * Never a key in the output.
 */
import { describe, expect, it } from "vitest";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { OfficialProject, typescriptProjectFiles } from "../support/officialProject";
import { ACME_KEY, GLOBEX_KEY, leaksOf } from "../support/shops";

const RESOURCE = "pulumi-nodejs:dynamic/shipping:WebhookSubscription";
const DEFAULT_SHOP_PROGRAM = `import { WebhookSubscription } from "pulumi-shipping-webhooks";

export const id = new WebhookSubscription("orders", {
  hook: "order_status_change",
  url: "https://hooks.example.com/orders",
}).subscriptionId;
`;
/**
 * acme's resource, then globex's. globex's waits for acme's registration: the engine ends a deployment at the
 * first resource whose check fails, so without the order acme's plan would be shown only when its registration
 * happened to reach the engine first.
 */
const TWO_SHOPS_PROGRAM = `import { WebhookSubscription } from "pulumi-shipping-webhooks";

const acme = new WebhookSubscription("acme-orders", {
  shop: "acme",
  hook: "order_status_change",
  url: "https://hooks.example.com/acme",
});
new WebhookSubscription(
  "globex-orders",
  { shop: "globex", hook: "order_status_change", url: "https://hooks.example.com/globex" },
  { dependsOn: [acme] },
);
`;
/** Words of zod's issues, which the messages must not be made of. */
const ZOD_WORDS = /Unrecognized key|Invalid input|expected string|received undefined/i;

/** The simulator of this file, reset before each test. */
const service = useAcmeSimulator();

async function project(name: string, program: string): Promise<OfficialProject> {
  const created = await OfficialProject.create(name, {
    ...typescriptProjectFiles(name),
    "index.ts": program,
  });
  await created.ok(["stack", "init", "dev"]);
  await created.ok(["config", "set", "shipping:baseUrl", service.sim.baseUrl]);
  return created;
}

/** What the CLI printed under "Diagnostics:" for the resource `name`, up to the next resource's. */
function diagnosticsOf(stdout: string, name: string): string {
  const diagnostics = stdout.slice(stdout.indexOf("Diagnostics:"));
  const start = diagnostics.indexOf(`${RESOURCE} (${name}):`);
  if (start < 0) return "";
  const rest = diagnostics.slice(start + 1);
  const next = rest.search(/\n {2}\S/);
  return next < 0 ? rest : rest.slice(0, next);
}

describe("config mistakes fail where they are, in our words", () => {
  it("shipping:shopID (for shipping:shopId) fails preview and up naming it and the setting, before any write", async () => {
    const shop = await project("config-shopid", DEFAULT_SHOP_PROGRAM);
    await shop.ok(["config", "set", "--secret", "shipping:apiKey", ACME_KEY]);
    await shop.ok(["config", "set", "shipping:shopID", "1"]);

    for (const command of [["preview"], ["up", "--yes"]]) {
      const run = await shop.pulumi(command);
      const printed = `${run.stdout}\n${run.stderr}`;
      expect(run.status, printed).not.toBe(0);
      expect(printed).toContain(
        "shipping:shopID: is not a setting of pulumi-shipping-webhooks, so nothing reads it (the settings under shipping: are apiKey, baseUrl, authScheme, shops, caCertificates, timeouts, retry, shopId); did you mean `shipping:shopId`? Remove it with `pulumi config rm shipping:shopID` and set `pulumi config set shipping:shopId <value>`",
      );
      expect(leaksOf(ACME_KEY, printed)).toEqual([]);
    }
    expect(service.sim.requests().filter((r) => r.method !== "GET")).toEqual([]);
    expect(service.sim.subscriptions("acme")).toEqual([]);
    expect(await shop.subscriptions()).toEqual([]);
  });

  it("a misspelled key in globex's entry fails globex's resource only, naming the key; acme's deploys", async () => {
    const shops = await project("config-entry", TWO_SHOPS_PROGRAM);
    await shops.ok(["config", "set", "--secret", "--path", "shipping:shops.acme.apiKey", ACME_KEY]);
    await shops.ok(["config", "set", "--secret", "--path", "shipping:shops.globex.apikey", GLOBEX_KEY]);

    const preview = await shops.pulumi(["preview"]);
    const printed = `${preview.stdout}\n${preview.stderr}`;
    expect(preview.status, printed).not.toBe(0);
    const globex = diagnosticsOf(preview.stdout, "globex-orders");
    expect(globex, printed).toContain(
      "shipping:shops.globex.apikey: is not a key of a shop entry (a shop entry holds apiKey, and optionally baseUrl and shopId); did you mean `shipping:shops.globex.apiKey`? Remove it with `pulumi config rm --path 'shipping:shops.globex.apikey'` and set `pulumi config set --secret --path 'shipping:shops.globex.apiKey' <value>`",
    );
    // acme's resource, checked first, is planned as a create with no error: globex's entry is no concern of it.
    expect(preview.stdout).toMatch(new RegExp(`\\+ +${RESOURCE} acme-orders create`));
    expect(diagnosticsOf(preview.stdout, "acme-orders"), printed).toBe("");
    expect(printed).not.toMatch(ZOD_WORDS);
    expect([...leaksOf(ACME_KEY, printed), ...leaksOf(GLOBEX_KEY, printed)]).toEqual([]);

    // acme's resource alone previews and deploys: globex's entry is no concern of it.
    const acme = `urn:pulumi:dev::config-entry::${RESOURCE}::acme-orders`;
    await shops.ok(["preview", "--target", acme]);
    await shops.ok(["up", "--yes", "--target", acme]);
    expect(service.sim.subscriptions("acme").map((s) => s.url)).toEqual(["https://hooks.example.com/acme"]);
    expect(service.sim.subscriptions("globex")).toEqual([]);

    // Fixed as the message says, globex's resource deploys too.
    await shops.ok(["config", "rm", "--path", "shipping:shops.globex.apikey"]);
    await shops.ok(["config", "set", "--secret", "--path", "shipping:shops.globex.apiKey", GLOBEX_KEY]);
    await shops.ok(["up", "--yes"]);
    expect(service.sim.subscriptions("globex").map((s) => s.url)).toEqual([
      "https://hooks.example.com/globex",
    ]);
  });
});
