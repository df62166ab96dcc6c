import { describe, expect, it } from "vitest";
import { type ConfigSource, canonicalApi, resolveShop } from "../../provider/config/settings";
import { editDistance } from "../../provider/config/suggest";
import { ShippingConfigError } from "../../provider/errors";
import { thrownBy } from "../support/rejection";

const KEY = "unit-test-key-7f3a";
const configOf =
  (values: Record<string, string>): ConfigSource =>
  (key) =>
    values[key];

/** What `fn` throws, expected to be a ShippingConfigError. */
const thrown = (fn: () => unknown): ShippingConfigError => thrownBy(fn, ShippingConfigError);

describe("resolveShop", () => {
  it.each(["constructor", "toString", "__proto__"])(
    "a shop named %s that shipping:shops lacks is unknown, not a property of every object",
    (name) => {
      const config = configOf({
        "shipping:baseUrl": "http://127.0.0.1:4010",
        "shipping:shops": JSON.stringify({ acme: { apiKey: KEY } }),
      });
      expect(thrown(() => resolveShop(name, config, {})).message).toContain(`has no shop "${name}"`);
    },
  );

  it("reads the default shop from stack config", () => {
    const target = resolveShop(
      undefined,
      configOf({ "shipping:apiKey": KEY, "shipping:baseUrl": "http://127.0.0.1:4010/" }),
      {},
    );
    expect(target).toMatchObject({
      label: "(default)",
      baseUrl: "http://127.0.0.1:4010",
      apiKey: KEY,
      authScheme: "auto",
    });
  });

  it("falls back to the environment, and stack config wins over it", () => {
    const env = {
      SHIPPING_API_KEY: "from-env",
      SHIPPING_BASE_URL: "https://api.example.com",
      SHIPPING_AUTH_SCHEME: "basic",
    };
    expect(resolveShop(undefined, undefined, env)).toMatchObject({ apiKey: "from-env", authScheme: "basic" });
    expect(resolveShop(undefined, configOf({ "shipping:apiKey": KEY }), env).apiKey).toBe(KEY);
  });

  it("picks a named shop's key and base URL from shipping:shops", () => {
    const shops = JSON.stringify({
      acme: { apiKey: KEY, baseUrl: "https://eu.api.example.com" },
      beta: { apiKey: "k2" },
    });
    const config = configOf({ "shipping:shops": shops, "shipping:baseUrl": "https://api.example.com" });
    expect(resolveShop("acme", config, {})).toMatchObject({
      label: "acme",
      apiKey: KEY,
      baseUrl: "https://eu.api.example.com",
    });
    expect(resolveShop("beta", config, {})).toMatchObject({
      apiKey: "k2",
      baseUrl: "https://api.example.com",
    });
  });

  it("gives the same shopKey to the same key and base URL, whatever the shop is called", () => {
    const shops = JSON.stringify({ acme: { apiKey: KEY } });
    const config = configOf({
      "shipping:shops": shops,
      "shipping:apiKey": KEY,
      "shipping:baseUrl": "https://api.example.com",
    });
    expect(resolveShop("acme", config, {}).shopKey).toBe(resolveShop(undefined, config, {}).shopKey);
    expect(resolveShop("acme", config, {}).shopKey).not.toContain(KEY);
  });

  it.each([
    [undefined, {}, "shipping:apiKey", /pulumi config set --secret shipping:apiKey <key>.*SHIPPING_API_KEY/],
    [
      undefined,
      { "shipping:apiKey": KEY },
      "shipping:baseUrl",
      /pulumi config set shipping:baseUrl.*SHIPPING_BASE_URL/,
    ],
    [
      "acme",
      { "shipping:baseUrl": "https://a.example" },
      "shipping:shops",
      /no shop "acme".*shipping:shops.acme.apiKey/,
    ],
    [
      undefined,
      { "shipping:apiKey": KEY, "shipping:baseUrl": "http://api.example.com" },
      "shipping:baseUrl",
      /must use HTTPS.*loopback/,
    ],
    [
      undefined,
      { "shipping:apiKey": KEY, "shipping:baseUrl": "not a url" },
      "shipping:baseUrl",
      /not an absolute URL/,
    ],
    [
      undefined,
      { "shipping:apiKey": KEY, "shipping:baseUrl": "https://a.example", "shipping:authScheme": "token" },
      "shipping:authScheme",
      /use auto, bearer or basic/,
    ],
    ["acme", { "shipping:shops": "{not json" }, "shipping:shops", /not valid JSON/],
    [
      undefined,
      {
        "shipping:apiKey": KEY,
        "shipping:baseUrl": "https://a.example",
        "shipping:timeouts": JSON.stringify({ connectMS: 100 }),
      },
      "shipping:timeouts.connectMS",
      /^shipping:timeouts\.connectMS: is not a key of shipping:timeouts \(it holds connectMs, headersMs, bodyMs, deadlineMs\); did you mean `shipping:timeouts\.connectMs`\?$/,
    ],
    [
      undefined,
      {
        "shipping:apiKey": KEY,
        "shipping:baseUrl": "https://a.example",
        SHIPPING_RETRY: JSON.stringify({ retries: 1 }),
      },
      "SHIPPING_RETRY.retries",
      /^SHIPPING_RETRY\.retries: is not a key of SHIPPING_RETRY \(it holds maxRetries, baseDelayMs, maxDelayMs, maxRetryAfterMs\)$/,
    ],
    [
      "acme",
      { "shipping:shops": JSON.stringify({ acme: { apiKey: 5 } }) },
      "shipping:shops.acme.apiKey",
      /must be a non-empty string \(the shop's API key\)\. Set it with `pulumi config set --secret --path 'shipping:shops\.acme\.apiKey' <key>`/,
    ],
  ])("shop %j with %j fails on %s saying how to fix it", (shop, values, setting, message) => {
    // SHIPPING_* entries of the row are the environment.
    const env = Object.fromEntries(Object.entries(values).filter(([key]) => key.startsWith("SHIPPING_")));
    const error = thrown(() => resolveShop(shop, configOf(values), env));
    expect(error.setting).toBe(setting);
    expect(error.message).toMatch(message);
  });

  it("pins the default shop with shipping:shopId (or SHIPPING_SHOP_ID) and an entry with its shopId, string or number", () => {
    const base = { "shipping:apiKey": KEY, "shipping:baseUrl": "https://api.example.com" };
    expect(resolveShop(undefined, configOf(base), {}).pin).toBeUndefined();
    expect(resolveShop(undefined, configOf({ ...base, "shipping:shopId": "s-1" }), {}).pin).toEqual({
      shopId: "s-1",
      setting: "shipping:shopId",
    });
    expect(resolveShop(undefined, configOf(base), { SHIPPING_SHOP_ID: "s-2" }).pin).toEqual({
      shopId: "s-2",
      setting: "SHIPPING_SHOP_ID",
    });
    const shops = JSON.stringify({
      a: { apiKey: KEY, shopId: 42 },
      b: { apiKey: KEY, shopId: "x" },
      c: { apiKey: KEY },
    });
    const config = configOf({ ...base, "shipping:shopId": "default-only", "shipping:shops": shops });
    expect(resolveShop("a", config, {}).pin).toEqual({ shopId: "42", setting: "shipping:shops.a.shopId" });
    expect(resolveShop("b", config, {}).pin).toEqual({ shopId: "x", setting: "shipping:shops.b.shopId" });
    // shipping:shopId pins the default shop only: an entry without its own shopId is not pinned.
    expect(resolveShop("c", config, {}).pin).toBeUndefined();
    const empty = JSON.stringify({ a: { apiKey: KEY, shopId: "" } });
    expect(thrown(() => resolveShop("a", configOf({ ...base, "shipping:shops": empty }), {})).setting).toBe(
      "shipping:shops.a.shopId",
    );
  });

  it.each([
    ["acmee", 'has no shop "acmee"; did you mean "acme"? (configured: acme, globex)'],
    ["globx", 'has no shop "globx"; did you mean "globex"? (configured: acme, globex)'],
    ["acme-eu", 'has no shop "acme-eu" (configured: acme, globex). Add it with'],
    ["initech", 'has no shop "initech" (configured: acme, globex). Add it with'],
  ])("a shop name shipping:shops lacks, %s: %s", (shop, message) => {
    const shops = JSON.stringify({ acme: { apiKey: KEY }, globex: { apiKey: KEY } });
    const config = configOf({ "shipping:shops": shops, "shipping:baseUrl": "https://a.example" });
    expect(thrown(() => resolveShop(shop, config, {})).message).toContain(message);
  });

  it.each([
    ["", "", 0],
    ["acme", "acme", 0],
    ["acme", "acmee", 1],
    ["acme", "amce", 2],
    ["globex", "globx", 1],
    ["kitten", "sitting", 3],
  ])("edit distance %j to %j is %i", (a, b, edits) => {
    expect(editDistance(a, b)).toBe(edits);
    expect(editDistance(b, a)).toBe(edits);
  });

  it("never puts a key into a configuration error", () => {
    const secret = "k-should-stay-hidden-991";
    const shops = JSON.stringify({ acme: { apiKey: secret, baseUrl: "http://evil.example.com" } });
    const error = thrown(() => resolveShop("acme", configOf({ "shipping:shops": shops }), {}));
    expect(error.message).not.toContain(secret);
    expect(error.message).not.toContain(Buffer.from(secret).toString("base64"));
    const badShape = JSON.stringify({ acme: { apiKey: secret, extra: secret } });
    expect(
      thrown(() => resolveShop("acme", configOf({ "shipping:shops": badShape }), {})).message,
    ).not.toContain(secret);
  });
});

describe("canonicalApi", () => {
  it.each([
    ["http://127.0.0.1:4010", "http://127.0.0.1:4010"],
    ["http://localhost:4010/", "http://127.0.0.1:4010"],
    ["http://LOCALHOST:4010", "http://127.0.0.1:4010"],
    ["https://API.Example.com:443/", "https://api.example.com"],
    ["https://api.example.com./v2/", "https://api.example.com/v2"],
  ])("spells %s as %s", (baseUrl, canonical) => {
    expect(canonicalApi(baseUrl)).toBe(canonical);
  });

  it.each([
    ["http://127.0.0.1:4010", "http://127.0.0.2:4010"],
    ["http://127.0.0.1:4010", "http://[::1]:4010"],
    ["https://api.example.com", "https://api.example.com/v2"],
    ["https://api.example.com", "https://api.example.com:8443"],
  ])("keeps %s and %s apart (they may be two services)", (a, b) => {
    expect(canonicalApi(a)).not.toBe(canonicalApi(b));
  });
});
