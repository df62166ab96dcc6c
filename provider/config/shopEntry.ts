/**
 * One entry of `shipping:shops` (or of the SHIPPING_SHOPS JSON), read on its own: an entry's mistake (a key
 * the entry cannot hold, a value of the wrong kind) is an error of that shop only, worded here (names the key,
 * the rule and the fix; never a value, which may be a key), so the resources of the other shops are unaffected.
 */
import { ShippingConfigError } from "../errors/configError";
import { suggestName } from "./suggest";

/** The keys a shop entry may hold: `apiKey` is required. */
export const SHOP_ENTRY_KEYS = ["apiKey", "baseUrl", "shopId"] as const;

/** A valid shop entry. */
interface ShopEntry {
  readonly apiKey: string;
  readonly baseUrl?: string;
  /** `pulumi config set --path` stores a number when the id looks like one: kept as its decimal text. */
  readonly shopId?: string;
}

const RULE = "a shop entry holds apiKey, and optionally baseUrl and shopId";

/** Where an entry came from, for messages: `shipping:shops` (stack config) or `SHIPPING_SHOPS` (environment). */
function place(source: string, shop: string, key?: string) {
  const path = key === undefined ? `${source}.${shop}` : `${source}.${shop}.${key}`;
  const fromConfig = source.startsWith("shipping:");
  const setCommand = (name: string, value: string) =>
    `\`pulumi config set${name === "apiKey" ? " --secret" : ""} --path '${source}.${shop}.${name}' ${value}\``;
  return { path, fromConfig, setCommand };
}

/** The error for a key `shop`'s entry cannot hold, with the known key it most likely misspells. */
function unknownEntryKey(source: string, shop: string, key: string): ShippingConfigError {
  const { path, fromConfig, setCommand } = place(source, shop, key);
  const suggestion = suggestName(key, SHOP_ENTRY_KEYS);
  const meant = suggestion === undefined ? "." : `; did you mean \`${source}.${shop}.${suggestion}\`?`;
  const fix = fromConfig
    ? `Remove it with \`pulumi config rm --path '${path}'\`${suggestion === undefined ? "" : ` and set ${setCommand(suggestion, "<value>")}`}`
    : `Fix the entry "${shop}" in the ${source} JSON`;
  return new ShippingConfigError(path, `is not a key of a shop entry (${RULE})${meant} ${fix}`);
}

/** A value of the wrong kind, or a missing apiKey: names the key and what it must be, never the value. */
function badValue(source: string, shop: string, key: string, rule: string): ShippingConfigError {
  const { path, fromConfig, setCommand } = place(source, shop, key);
  const value = key === "apiKey" ? "<key>" : `<${key}>`;
  const fix = fromConfig
    ? `Set it with ${setCommand(key, value)}`
    : `Fix the entry "${shop}" in the ${source} JSON`;
  return new ShippingConfigError(path, `${rule}. ${fix}`);
}

const isText = (value: unknown): value is string => typeof value === "string" && value !== "";

/**
 * `value` as the entry of `shop` in `source` (`shipping:shops` or `SHIPPING_SHOPS`), or the entry's first
 * mistake as a {@link ShippingConfigError} on `<source>.<shop>[.<key>]`: a key it cannot hold first (a
 * misspelled `apikey` is why `apiKey` is missing), then a missing or malformed value.
 */
export function readShopEntry(source: string, shop: string, value: unknown): ShopEntry {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    const { path } = place(source, shop);
    return fail(new ShippingConfigError(path, `must be an object (${RULE})`));
  }
  const entry = value as Record<string, unknown>;
  const unknown = Object.keys(entry).find((key) => !(SHOP_ENTRY_KEYS as readonly string[]).includes(key));
  if (unknown !== undefined) return fail(unknownEntryKey(source, shop, unknown));
  const { apiKey, baseUrl, shopId } = entry;
  if (apiKey === undefined)
    return fail(badValue(source, shop, "apiKey", "is not set: a shop entry needs its API key"));
  if (!isText(apiKey))
    return fail(badValue(source, shop, "apiKey", "must be a non-empty string (the shop's API key)"));
  if (baseUrl !== undefined && typeof baseUrl !== "string")
    return fail(badValue(source, shop, "baseUrl", "must be a string (the shop's API base URL)"));
  if (shopId !== undefined && !isText(shopId) && !(typeof shopId === "number" && Number.isFinite(shopId)))
    return fail(
      badValue(
        source,
        shop,
        "shopId",
        "must be a non-empty string or a number (the shop_id the service reports)",
      ),
    );
  return {
    apiKey,
    ...(baseUrl !== undefined ? { baseUrl } : {}),
    ...(shopId !== undefined ? { shopId: String(shopId) } : {}),
  };
}

function fail(error: ShippingConfigError): never {
  throw error;
}
