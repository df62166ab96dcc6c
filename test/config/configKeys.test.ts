/**
 * Config mistakes that passed silently or landed on the wrong shop (issue 34): the "did you mean" rule, the
 * key rule of the `shipping:` namespace and of a shop entry, as tables. Each message names the key, the rule
 * and the fix, and never a value (it may be an API key).
 */
import { describe, expect, it } from "vitest";
import { unknownSettingError, unknownSettingsError } from "../../provider/config/configKeys";
import { type ConfigSource, resolveShop } from "../../provider/config/settings";
import { readShopEntry, SHOP_ENTRY_KEYS } from "../../provider/config/shopEntry";
import { suggestName } from "../../provider/config/suggest";
import { ShippingConfigError } from "../../provider/errors";
import { thrownBy } from "../support/rejection";

const SECRET = "k-acme-9f1c-must-not-show";
const SETTINGS_RULE =
  "the settings under shipping: are apiKey, baseUrl, authScheme, shops, caCertificates, timeouts, retry, shopId";
const ENTRY_RULE = "a shop entry holds apiKey, and optionally baseUrl and shopId";

describe("suggestName", () => {
  const settings = [
    "apiKey",
    "baseUrl",
    "authScheme",
    "shops",
    "caCertificates",
    "timeouts",
    "retry",
    "shopId",
  ];
  it.each([
    ["shopID", settings, "shopId"],
    ["SHOPID", settings, "shopId"],
    ["apikey", settings, "apiKey"],
    ["apiKye", settings, "apiKey"],
    ["baseURL", settings, "baseUrl"],
    ["base_url", settings, "baseUrl"],
    ["shop", settings, "shops"],
    ["timeout", settings, "timeouts"],
    ["rety", settings, "retry"],
    ["shopId", settings, undefined],
    ["hooks", settings, undefined],
    ["endpoint", settings, undefined],
    ["apikey", SHOP_ENTRY_KEYS, "apiKey"],
    ["key", SHOP_ENTRY_KEYS, undefined],
    ["shop_id", SHOP_ENTRY_KEYS, "shopId"],
    ["acmee", ["acme", "globex"], "acme"],
    ["Acme", ["acme", "globex"], "acme"],
    ["initech", ["acme", "globex"], undefined],
  ])("%j among %j: %j", (given, known, expected) => {
    expect(suggestName(given, known)).toBe(expected);
  });
});

describe("the key rule of shipping:", () => {
  it.each([
    ["shipping:apiKey", undefined],
    ["shipping:shops", undefined],
    ["shipping:retry", undefined],
    ["from-config:hooks", undefined],
    ["aws:region", undefined],
    [
      "shipping:shopID",
      `shipping:shopID: is not a setting of pulumi-shipping-webhooks, so nothing reads it (${SETTINGS_RULE}); did you mean \`shipping:shopId\`? Remove it with \`pulumi config rm shipping:shopID\` and set \`pulumi config set shipping:shopId <value>\``,
    ],
    [
      "shipping:apikey",
      "did you mean `shipping:apiKey`? Remove it with `pulumi config rm shipping:apikey` and set `pulumi config set --secret shipping:apiKey <value>`",
    ],
    [
      "shipping:endpoint",
      `shipping:endpoint: is not a setting of pulumi-shipping-webhooks, so nothing reads it (${SETTINGS_RULE}). Remove it with \`pulumi config rm shipping:endpoint\``,
    ],
    [
      "shipping:shops.globex.apikey",
      "shipping:shops.globex.apikey: is one key whose name holds dots (set without --path), not a field of shipping:shops, so nothing reads it",
    ],
    [
      "shipping:shops.globex.apikey",
      "did you mean `shipping:shops.globex.apiKey`? Remove it with `pulumi config rm shipping:shops.globex.apikey` and set `pulumi config set --secret --path 'shipping:shops.globex.apiKey' <value>`",
    ],
    ["shipping:timeouts.connectMs", "set `pulumi config set --path 'shipping:timeouts.connectMs' <value>`"],
  ])("%s: %s", (key, message) => {
    const error = unknownSettingError(key);
    if (message === undefined) return expect(error).toBeUndefined();
    expect(error).toBeInstanceOf(ShippingConfigError);
    expect(error?.setting).toBe(key);
    expect(error?.message).toContain(message);
  });

  it("reports the first unknown key of the stack config, names the others, and skips a project named shipping", () => {
    const keys = ["shipping:apiKey", "shipping:shopID", "shipping:baseURL", "other:shopID"];
    const error = unknownSettingsError(keys, "webhooks");
    expect(error?.setting).toBe("shipping:baseURL");
    expect(error?.message).toMatch(
      /did you mean `shipping:baseUrl`\?.*\(also not settings: shipping:shopID\)$/,
    );
    expect(unknownSettingsError(["shipping:apiKey", "other:x"], "webhooks")).toBeUndefined();
    // There, `shipping:hooks` is the program's own (`pulumi config set hooks ...`): not ours to judge.
    expect(unknownSettingsError(["shipping:hooks"], "shipping")).toBeUndefined();
  });
});

describe("the key rule of a shop entry", () => {
  it.each([
    [{ apiKey: SECRET }, { apiKey: SECRET }],
    [
      { apiKey: SECRET, shopId: 42, baseUrl: "https://a.example" },
      { apiKey: SECRET, shopId: "42", baseUrl: "https://a.example" },
    ],
    [
      { apikey: SECRET },
      `shipping:shops.globex.apikey: is not a key of a shop entry (${ENTRY_RULE}); did you mean \`shipping:shops.globex.apiKey\`? Remove it with \`pulumi config rm --path 'shipping:shops.globex.apikey'\` and set \`pulumi config set --secret --path 'shipping:shops.globex.apiKey' <value>\``,
    ],
    [
      { apiKey: SECRET, shopID: "s-1" },
      "shipping:shops.globex.shopID: is not a key of a shop entry (a shop entry holds apiKey, and optionally baseUrl and shopId); did you mean `shipping:shops.globex.shopId`? Remove it with `pulumi config rm --path 'shipping:shops.globex.shopID'` and set `pulumi config set --path 'shipping:shops.globex.shopId' <value>`",
    ],
    [
      { apiKey: SECRET, token: SECRET },
      `shipping:shops.globex.token: is not a key of a shop entry (${ENTRY_RULE}). Remove it with \`pulumi config rm --path 'shipping:shops.globex.token'\``,
    ],
    [
      {},
      "shipping:shops.globex.apiKey: is not set: a shop entry needs its API key. Set it with `pulumi config set --secret --path 'shipping:shops.globex.apiKey' <key>`",
    ],
    [{ apiKey: "" }, "shipping:shops.globex.apiKey: must be a non-empty string (the shop's API key)"],
    [
      { apiKey: SECRET, baseUrl: 4010 },
      "shipping:shops.globex.baseUrl: must be a string (the shop's API base URL)",
    ],
    [{ apiKey: SECRET, shopId: "" }, "shipping:shops.globex.shopId: must be a non-empty string or a number"],
    [SECRET, `shipping:shops.globex: must be an object (${ENTRY_RULE})`],
    [[SECRET], `shipping:shops.globex: must be an object (${ENTRY_RULE})`],
  ])("%j: %j", (entry, expected) => {
    if (typeof expected === "object")
      return expect(readShopEntry("shipping:shops", "globex", entry)).toEqual(expected);
    const error = thrown(() => readShopEntry("shipping:shops", "globex", entry));
    expect(error.message).toContain(expected);
    expect(error.message).not.toContain(SECRET);
  });

  it("SHIPPING_SHOPS entries follow the same rule, fixed in the JSON", () => {
    const error = thrown(() => readShopEntry("SHIPPING_SHOPS", "globex", { apikey: SECRET }));
    expect(error.setting).toBe("SHIPPING_SHOPS.globex.apikey");
    expect(error.message).toBe(
      `SHIPPING_SHOPS.globex.apikey: is not a key of a shop entry (${ENTRY_RULE}); did you mean \`SHIPPING_SHOPS.globex.apiKey\`? Fix the entry "globex" in the SHIPPING_SHOPS JSON`,
    );
  });
});

describe("an entry's mistake is its shop's only", () => {
  const base = { "shipping:baseUrl": "https://api.example.com" };
  const shops = JSON.stringify({ acme: { apiKey: SECRET }, globex: { apikey: SECRET } });
  const configOf =
    (values: Record<string, string>): ConfigSource =>
    (key) =>
      values[key];

  it.each([
    ["stack config", configOf({ ...base, "shipping:shops": shops }), {}, "shipping:shops.globex.apikey"],
    ["SHIPPING_SHOPS", configOf(base), { SHIPPING_SHOPS: shops }, "SHIPPING_SHOPS.globex.apikey"],
  ])("in %s: acme resolves, globex fails naming its key", (_channel, config, env, setting) => {
    expect(resolveShop("acme", config, env).apiKey).toBe(SECRET);
    const error = thrown(() => resolveShop("globex", config, env));
    expect(error.setting).toBe(setting);
    expect(error.message).not.toContain(SECRET);
  });
});

/** What `fn` throws, expected to be a ShippingConfigError. */
const thrown = (fn: () => unknown): ShippingConfigError => thrownBy(fn, ShippingConfigError);
