/**
 * What a failed preview tells about a shop it could not use: the setting that holds the key and the command
 * that sets it, pasted as printed (an entry of `shipping:shops` needs `--path`, or the CLI stores a stray
 * top-level key that nothing reads), and the base URL to check when the API cannot be reached.
 */
import { describe, expect, it } from "vitest";
import { resolveShop, type ShopTarget } from "../../provider/config/settings";
import { ShippingConnectionError } from "../../provider/errors/connectionError";
import { ShippingRequestError } from "../../provider/errors/requestError";
import { ShippingResponseError } from "../../provider/errors/responseError";
import { shopUnusable } from "../../provider/refusals/previewMessages";

const target = (label: string): ShopTarget => ({
  api: "https://api.example.com",
  shopKey: `k-${label}`,
  label,
  baseUrl: "https://api.example.com",
  apiKey: "secret-key-value",
  authScheme: "auto",
});
const BASE = "https://api.example.com";
const request = {
  method: "GET",
  url: "https://api.example.com/webhook_subscriptions/",
  headers: { authorization: "bearer [REDACTED]" },
};
const refused = (status: number) =>
  new ShippingRequestError(request, { status, headers: {}, body: {} }, "Unauthorized", "invalid key", []);

describe("shopUnusable", () => {
  it.each([
    ["(default)", 401, "the default shop", "`pulumi config set --secret shipping:apiKey <key>`"],
    [
      "globex",
      401,
      "shop globex",
      "`pulumi config set --secret --path 'shipping:shops.globex.apiKey' <key>`",
    ],
    [
      "globex",
      403,
      "shop globex",
      "`pulumi config set --secret --path 'shipping:shops.globex.apiKey' <key>`",
    ],
  ])("%s refused with %d: names %s and the command that sets its key", (label, status, shop, command) => {
    const text = shopUnusable("orders", target(label), refused(status));
    expect(text).toContain(`WebhookSubscription "orders": ${shop} at https://api.example.com`);
    expect(text).toContain(`(${status}). Set the shop's key: ${command}`);
    expect(text).not.toContain("secret-key-value");
  });

  it.each([
    [
      "the default shop, base URL in config",
      undefined,
      { "shipping:baseUrl": BASE },
      {},
      "Check shipping:baseUrl,",
    ],
    [
      "an entry without its own base URL",
      "globex",
      { "shipping:baseUrl": BASE },
      {},
      "Check shipping:baseUrl,",
    ],
    [
      "an entry with its own",
      "globex",
      { "shipping:baseUrl": "https://other.example.com" },
      { baseUrl: BASE },
      "Check shipping:shops.globex.baseUrl,",
    ],
    ["the base URL from the environment", "globex", {}, {}, "Check SHIPPING_BASE_URL,"],
  ])("%s unreachable: names the setting the base URL came from", (_, shop, config, entry, check) => {
    const values: Record<string, string> = {
      ...config,
      "shipping:apiKey": "secret-key-value",
      "shipping:shops": JSON.stringify({ globex: { apiKey: "secret-key-value", ...entry } }),
    };
    const resolved = resolveShop(shop, (key) => values[key], { SHIPPING_BASE_URL: BASE });
    const error = new ShippingConnectionError(request, "connect ECONNREFUSED", "ECONNREFUSED");
    const text = shopUnusable("orders", resolved, error);
    expect(text).toContain("cannot be reached (connect ECONNREFUSED (ECONNREFUSED)).");
    expect(text).toContain(check);
    // One way out, not the request error's own hint as well.
    expect(text).not.toContain("hint:");
    expect(text).not.toContain("secret-key-value");
  });

  it.each([
    [
      "a web page where the API should be",
      200,
      "answers, but not as the Shipping API does (",
      "Check shipping:baseUrl",
    ],
    ["a server error", 500, "listing the shop failed (", "run the preview again"],
  ])("%s: says what it is and what to check", (_, status, says, fix) => {
    const response = { status, headers: {}, body: "<html></html>" };
    const error =
      status === 200
        ? new ShippingResponseError(request, response, "the body is not JSON")
        : new ShippingRequestError(request, response, "Internal Server Error", undefined, []);
    const text = shopUnusable("orders", target("(default)"), error);
    expect(text).toContain(`WebhookSubscription "orders": the default shop at ${BASE}`);
    expect(text).toContain(says);
    expect(text).toContain(fix);
    expect(text).not.toContain("cannot be reached");
  });
});
