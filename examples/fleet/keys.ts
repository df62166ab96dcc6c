import type { FleetGroup } from "./fleet";

/** The environment variable holding every shop's API key: `{"<shop>": {"apiKey": "...", "baseUrl"?: "..."}}`. */
export const SHOPS_ENV = "SHIPPING_SHOPS";

/** One shop's credentials as the provider reads them from `SHIPPING_SHOPS`. */
interface ShopCredentials {
  readonly apiKey: string;
  readonly baseUrl?: string;
}

/** Credentials that cannot be used; the message names the variable and shop, never a value. */
export class CredentialsError extends Error {
  override readonly name = "CredentialsError";
}

/**
 * Parses `SHIPPING_SHOPS` (absent: no shop has a key). Errors name the variable and the shop, never a key:
 * the text may be partly a secret.
 */
export function readShopKeys(env: NodeJS.ProcessEnv): Map<string, ShopCredentials> {
  const text = env[SHOPS_ENV];
  const keys = new Map<string, ShopCredentials>();
  if (text === undefined || text === "") return keys;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new CredentialsError(
      `${SHOPS_ENV} is not valid JSON; it must be {"<shop>": {"apiKey": "...", "baseUrl"?: "..."}}`,
    );
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw new CredentialsError(`${SHOPS_ENV} must be a JSON object: {"<shop>": {"apiKey": "..."}}`);
  }
  for (const [shop, entry] of Object.entries(json)) {
    const { apiKey, baseUrl } = (entry ?? {}) as Record<string, unknown>;
    if (typeof apiKey !== "string" || apiKey === "") {
      throw new CredentialsError(`${SHOPS_ENV}.${shop}.apiKey must be a non-empty string`);
    }
    if (baseUrl !== undefined && typeof baseUrl !== "string") {
      throw new CredentialsError(`${SHOPS_ENV}.${shop}.baseUrl must be a URL string`);
    }
    keys.set(shop, { apiKey, ...(typeof baseUrl === "string" ? { baseUrl } : {}) });
  }
  return keys;
}

/**
 * The `SHIPPING_SHOPS` value one stack gets: only its own shops' keys, so a stack cannot touch another
 * group's shops, plus those of `movingOut`, shops the fleet file put in another group while this stack still
 * records some of their subscriptions (it deletes those of hooks the new group does not declare, and its
 * refresh reads them). Throws naming the shops that have no key, and how to add one.
 */
export function groupShopsValue(
  group: FleetGroup,
  keys: ReadonlyMap<string, ShopCredentials>,
  movingOut: readonly string[] = [],
): string {
  const names = [...group.shops.map((shop) => shop.name), ...movingOut];
  const missing = names.filter((name) => !keys.has(name));
  if (missing.length > 0) {
    throw new CredentialsError(
      `${SHOPS_ENV} has no key for ${missing.join(", ")}: add {"${missing[0]}": {"apiKey": "..."}} to it (a CI secret, never a file)`,
    );
  }
  return JSON.stringify(Object.fromEntries(names.map((name) => [name, keys.get(name)])));
}
