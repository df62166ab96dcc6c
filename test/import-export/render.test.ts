import { describe, expect, it } from "vitest";
import { importsWebhookSubscription, projectName } from "../../provider/cli/project";
import {
  inventory,
  renderStackYaml,
  renderTypeScript,
  resourceName,
  variableName,
} from "../../provider/cli/render";
import {
  leaveOutRecorded,
  parseConfigJson,
  parseStackExport,
  parseStackList,
  redact,
} from "../../provider/cli/stackState";

const context = {
  command: "pulumi-shipping-webhooks export",
  baseUrl: "https://api.example.com",
  shop: "acme",
};

describe("export rendering", () => {
  it("skips what the provider's check would refuse, with the reason, and adopts the rest in hook order", () => {
    const items = inventory([
      { id: 9, hook: "parcel_lost", url: "https://hooks.example.com/p" },
      { id: 7, hook: "order_status_change", url: "http://hooks.example.com/o" },
      { id: 3, hook: "shipment_status_change", url: "https://hooks.example.com/s" },
      { id: 4, hook: "shipment_status_change", url: "https://hooks.example.com/s2" },
    ]);
    expect(items.adoptable).toEqual([
      { id: 3, hook: "shipment_status_change", url: "https://hooks.example.com/s" },
    ]);
    expect(items.skipped.map((s) => [s.subscription.id, s.reason])).toEqual([
      [4, "the shop has another subscription of this hook (listed above)"],
      [7, expect.stringContaining("must use HTTPS")],
      [9, expect.stringContaining("not a hook this version knows")],
    ]);
    const ts = renderTypeScript(items, context);
    expect(ts).toContain('// Skipped subscription 9 ("parcel_lost" -> "https://hooks.example.com/p")');
    expect(ts).toContain('  shop: "acme",');
  });

  it("quotes every value, so a quote or a newline in a URL cannot break out of the string", () => {
    const items = {
      adoptable: [{ id: 1, hook: "order_status_change" as const, url: 'https://h.example.com/a"b\nc' }],
      skipped: [],
    };
    expect(renderTypeScript(items, context)).toContain('url: "https://h.example.com/a\\"b\\nc",');
    expect(renderStackYaml(items, context, "p")).toContain(
      '    order_status_change: "https://h.example.com/a\\"b\\nc"',
    );
  });
});

describe("export's names: by shop and hook", () => {
  const orders = { id: 12, hook: "order_status_change" as const, url: "https://hooks.example.com/o" };

  it("the default shop's resource is the hook, a named shop's <shop>-<hook>; variables are camelCase", () => {
    expect(resourceName(undefined, orders)).toBe("order_status_change");
    expect(resourceName("acme", orders)).toBe("acme-order_status_change");
    expect(variableName("acme-order_status_change")).toBe("acmeOrderStatusChange");
    expect(variableName("eu_2-order_status_change")).toBe("eu2OrderStatusChange");
    expect(variableName("9lives-order_status_change")).toBe("shop9livesOrderStatusChange");
  });

  it("a name the stack records for another subscription gets the id appended", () => {
    expect(resourceName("acme", orders, ["acme-order_status_change"])).toBe("acme-order_status_change-12");
    const ts = renderTypeScript(
      { adoptable: [orders], skipped: [] },
      { ...context, taken: ["acme-order_status_change"] },
    );
    expect(ts).toContain(
      'const acmeOrderStatusChange12 = new WebhookSubscription("acme-order_status_change-12", {',
    );
  });
});

describe("export in a project: what the stack says, parsed from the pulumi CLI's output", () => {
  it("pulumi config --json --show-secrets: values as the provider reads them; secrets kept for redaction", () => {
    const config = parseConfigJson(
      JSON.stringify({
        "shipping:apiKey": { value: "acme-key-1", secret: true },
        "shipping:baseUrl": { value: "https://api.example.com", secret: false },
        "shipping:shops": {
          value: '{"globex":{"apiKey":"globex-key-2","shopId":7}}',
          objectValue: { globex: { apiKey: "globex-key-2", shopId: 7 } },
          secret: true,
        },
      }),
      "pulumi config",
    );
    expect(config.source("shipping:baseUrl")).toBe("https://api.example.com");
    expect(config.source("shipping:shops")).toBe('{"globex":{"apiKey":"globex-key-2","shopId":7}}');
    expect(config.source("shipping:shopId")).toBeUndefined();
    expect(redact("a acme-key-1 b globex-key-2 c", config.secrets)).toBe("a [secret] b [secret] c");
    expect(() => parseConfigJson("acme-key-1 oops", "pulumi config --json")).toThrow(
      /^`pulumi config --json` printed no JSON/,
    );
    try {
      parseConfigJson("acme-key-1 oops", "pulumi config --json");
    } catch (error) {
      expect((error as Error).message).not.toContain("acme-key-1");
    }
  });

  it("pulumi stack export: the WebhookSubscriptions, by name, id, API, shop and hook; secrets unread", () => {
    const secret = {
      "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
      ciphertext: "x",
    };
    const records = parseStackExport(
      JSON.stringify({
        version: 3,
        deployment: {
          resources: [
            {
              urn: "urn:pulumi:dev::p::pulumi:pulumi:Stack::p-dev",
              type: "pulumi:pulumi:Stack",
              custom: false,
            },
            {
              urn: "urn:pulumi:dev::p::pulumi-nodejs:dynamic/shipping:WebhookSubscription::orders",
              type: "pulumi-nodejs:dynamic/shipping:WebhookSubscription",
              id: "12",
              outputs: {
                subscriptionId: 12,
                hook: "order_status_change",
                url: secret,
                api: "https://api.example.com",
              },
            },
            {
              urn: "urn:pulumi:dev::p::pulumi-nodejs:dynamic/shipping:WebhookSubscription::globex-labels",
              type: "pulumi-nodejs:dynamic/shipping:WebhookSubscription",
              id: "40",
              outputs: { hook: "shipment_label_created", shop: "globex" },
            },
            {
              urn: "urn:pulumi:dev::p::pulumi-nodejs:dynamic/shipping:WebhookSubscription::hidden",
              type: "pulumi-nodejs:dynamic/shipping:WebhookSubscription",
              id: "41",
              outputs: { subscriptionId: 41, hook: "order_status_change", shop: secret },
            },
          ],
        },
      }),
      "pulumi stack export",
    );
    expect(records).toEqual([
      { name: "orders", id: 12, api: "https://api.example.com", hook: "order_status_change" },
      { name: "globex-labels", id: 40, shop: "globex", hook: "shipment_label_created" },
      // Its shop is a secret: it is left out by its id alone.
      { name: "hidden", id: 41 },
    ]);
    expect(parseStackExport('{"version":3,"deployment":{}}', "pulumi stack export")).toEqual([]);
  });

  it("pulumi stack ls --json: the stacks and the selected one", () => {
    const listed = '[{"name":"dev","current":false},{"name":"prod","current":true}]';
    expect(parseStackList(listed, "ls")).toEqual({ names: ["dev", "prod"], current: "prod" });
    expect(parseStackList("[]", "ls")).toEqual({ names: [] });
  });

  it("leaves out what the stack records (by id at the API) and hooks of the shop it declares", () => {
    const live = [
      { id: 1, hook: "shipment_status_change" as const, url: "https://h.example.com/s" },
      { id: 2, hook: "shipment_label_created" as const, url: "https://h.example.com/l" },
      { id: 3, hook: "order_status_change" as const, url: "https://h.example.com/o" },
    ];
    const api = "https://api.example.com";
    const records = [
      { name: "shipments", id: 1, api, hook: "shipment_status_change" },
      // The same id at another API is another subscription.
      { name: "elsewhere", id: 2, api: "https://other.example.com", hook: "shipment_label_created" },
      // acme's order hook is declared, with an id the shop no longer lists.
      { name: "acme-orders", id: 99, api, shop: "acme", hook: "order_status_change" },
    ];
    const forDefault = leaveOutRecorded({ adoptable: live, skipped: [] }, records, { api }, "dev");
    expect(forDefault.items.adoptable.map((a) => a.id)).toEqual([2, 3]);
    expect(forDefault.leftOut.map((l) => [l.subscription.id, l.reason])).toEqual([
      [1, 'stack dev records it as "shipments"'],
    ]);
    const forAcme = leaveOutRecorded({ adoptable: live, skipped: [] }, records, { api, shop: "acme" }, "dev");
    expect(forAcme.items.adoptable.map((a) => a.id)).toEqual([2]);
    expect(forAcme.leftOut[1]?.reason).toContain(
      'declares this hook of this shop as "acme-orders" (it records subscription 99)',
    );

    const ts = renderTypeScript(forDefault.items, {
      command: "pulumi-shipping-webhooks export --stack dev --format ts",
      baseUrl: api,
      stack: "dev",
      leftOut: forDefault.leftOut,
      shopId: "5",
      addTo: "index.ts",
    });
    expect(ts).toContain(
      '// Left out subscription 1 (shipment_status_change): stack dev records it as "shipments".',
    );
    expect(ts).toContain('pin it with `pulumi config set shipping:shopId "5" --stack dev`.');
    expect(ts).toContain("// To add to index.ts, which imports WebhookSubscription already");
    expect(ts).not.toMatch(/^import /m);
  });
});

describe("export in a project: the project folder", () => {
  it("reads the project's name, and whether its program imports WebhookSubscription already", () => {
    expect(projectName("name: shop-hooks\nruntime: nodejs\n")).toBe("shop-hooks");
    expect(projectName('description: x\nname: "quoted" # the name\n')).toBe("quoted");
    expect(
      importsWebhookSubscription('import { HOOKS, WebhookSubscription } from "pulumi-shipping-webhooks";'),
    ).toBe(true);
    expect(
      importsWebhookSubscription("import {\n  WebhookSubscription,\n} from 'pulumi-shipping-webhooks';"),
    ).toBe(true);
    expect(
      importsWebhookSubscription('import { WebhookSubscription as W } from "pulumi-shipping-webhooks";'),
    ).toBe(false);
    expect(importsWebhookSubscription('import { hooksFromConfig } from "pulumi-shipping-webhooks";')).toBe(
      false,
    );
    expect(importsWebhookSubscription("")).toBe(false);
  });
});
