import { createHash } from "node:crypto";
import { z } from "zod";
import type { AuthSchemeSetting } from "../client/authScheme";
import type { Timeouts } from "../client/httpTransport";
import type { RetrySettings } from "../client/retryPolicy";
import { validateBaseUrl } from "../client/shippingClient";
import { ShippingConfigError } from "../errors/configError";
import { readShopEntry } from "./shopEntry";
import { suggestName } from "./suggest";

/** Reads one stack-config value such as `shipping:apiKey`; undefined when unset. */
export type ConfigSource = (key: string) => string | undefined;

/** The stack-config keys and their environment fallbacks. */
export const SETTINGS = {
  apiKey: { config: "shipping:apiKey", env: "SHIPPING_API_KEY" },
  baseUrl: { config: "shipping:baseUrl", env: "SHIPPING_BASE_URL" },
  authScheme: { config: "shipping:authScheme", env: "SHIPPING_AUTH_SCHEME" },
  shops: { config: "shipping:shops", env: "SHIPPING_SHOPS" },
  caCertificates: { config: "shipping:caCertificates", env: "SHIPPING_CA_CERTIFICATES" },
  timeouts: { config: "shipping:timeouts", env: "SHIPPING_TIMEOUTS" },
  retry: { config: "shipping:retry", env: "SHIPPING_RETRY" },
  shopId: { config: "shipping:shopId", env: "SHIPPING_SHOP_ID" },
} as const;

/** `shipping:shops` as a whole: an object of entries, each read on its own when a resource names it. */
const shopsSchema = z.record(z.string(), z.unknown(), {
  error:
    'must be a JSON object of shop entries: { "<shop>": { "apiKey": ..., "baseUrl"?: ..., "shopId"?: ... } }',
});
const timeoutsSchema = z
  .object({
    connectMs: z.number().int().positive(),
    headersMs: z.number().int().positive(),
    bodyMs: z.number().int().positive(),
    deadlineMs: z.number().int().positive(),
  })
  .partial()
  .strict();
const retrySchema = z
  .object({
    maxRetries: z.number().int().min(0),
    baseDelayMs: z.number().int().min(0),
    maxDelayMs: z.number().int().min(0),
    maxRetryAfterMs: z.number().int().min(0),
  })
  .partial()
  .strict();

/** Everything needed to talk to one shop's API. Lives in memory only; never serialized. */
export interface ShopTarget {
  /** The API as recorded in state: {@link canonicalApi} of the base URL. Holds no credential. */
  readonly api: string;
  /** In-process identity of the credentials: `api` and a hash of the key. Never leaves the process. */
  readonly shopKey: string;
  /** The shop name, or `(default)` for `shipping:apiKey`. */
  readonly label: string;
  readonly baseUrl: string;
  /** Where `baseUrl` came from (`shipping:baseUrl`, `SHIPPING_BASE_URL`, `shipping:shops.<name>.baseUrl`). */
  readonly baseUrlSetting?: string;
  readonly apiKey: string;
  readonly authScheme: AuthSchemeSetting;
  readonly caCertificates?: string;
  readonly timeouts?: Partial<Timeouts>;
  readonly retry?: Partial<RetrySettings>;
  /** The shop this target must reach (`shipping:shopId`, or `shopId` of a `shipping:shops` entry). */
  readonly pin?: ShopPin;
}

/** A shop the configuration says its key must reach, as the service reports it (`shop_id`). */
interface ShopPin {
  readonly shopId: string;
  /** The setting that says so, for messages: `shipping:shopId` or `shipping:shops.<name>.shopId`. */
  readonly setting: string;
}

/** Whether `setting` (of a {@link ShippingConfigError}) is `shipping:shops` or SHIPPING_SHOPS, or in an entry. */
export function isShopsSetting(setting: string): boolean {
  return [SETTINGS.shops.config, SETTINGS.shops.env].some(
    (s) => setting === s || setting.startsWith(`${s}.`),
  );
}

type SettingName = keyof typeof SETTINGS;

function lookup(name: SettingName, config: ConfigSource | undefined, env: NodeJS.ProcessEnv) {
  const { config: key, env: variable } = SETTINGS[name];
  const fromConfig = config?.(key);
  if (fromConfig !== undefined && fromConfig !== "") return { value: fromConfig, source: key };
  const fromEnv = env[variable];
  if (fromEnv !== undefined && fromEnv !== "") return { value: fromEnv, source: variable };
  return undefined;
}

function parseJsonSetting<T>(
  name: SettingName,
  schema: z.ZodType<T>,
  config: ConfigSource | undefined,
  env: NodeJS.ProcessEnv,
): T | undefined {
  const found = lookup(name, config, env);
  if (found === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(found.value);
  } catch {
    throw new ShippingConfigError(found.source, "is not valid JSON");
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? `.${issue.path.join(".")}` : "";
    if (issue?.code === "unrecognized_keys" && schema instanceof z.ZodObject)
      throw unknownField(`${found.source}${where}`, issue.keys[0] ?? "", Object.keys(schema.shape));
    // The message names the path, never the value (it may hold a key).
    throw new ShippingConfigError(`${found.source}${where}`, issue?.message ?? "is invalid");
  }
  return parsed.data;
}

/** A key that an object setting (`shipping:timeouts`, `shipping:retry`) cannot hold, with the nearest one. */
function unknownField(setting: string, key: string, known: readonly string[]): ShippingConfigError {
  const meant = suggestName(key, known);
  const suggestion = meant === undefined ? "" : `; did you mean \`${setting}.${meant}\`?`;
  return new ShippingConfigError(
    `${setting}.${key}`,
    `is not a key of ${setting} (it holds ${known.join(", ")})${suggestion}`,
  );
}

function authSchemeSetting(config: ConfigSource | undefined, env: NodeJS.ProcessEnv): AuthSchemeSetting {
  const found = lookup("authScheme", config, env);
  if (found === undefined) return "auto";
  const value = found.value.toLowerCase();
  if (value === "auto" || value === "bearer" || value === "basic") return value;
  throw new ShippingConfigError(
    found.source,
    `"${found.value}" is not an auth scheme; use auto, bearer or basic`,
  );
}

/**
 * One spelling of an API base URL: what `new URL` normalises (case of scheme and host, default port), no
 * trailing slash or trailing dot of the host, and `localhost` as `127.0.0.1`. Two base URLs with the same
 * canonical form reach the same service. (Other loopback addresses stay apart: two services may listen on
 * one port at `127.0.0.1` and `127.0.0.2`.)
 */
export function canonicalApi(baseUrl: string): string {
  const url = new URL(baseUrl);
  const host = url.hostname.replace(/\.$/, "");
  url.hostname = host === "localhost" ? "127.0.0.1" : host;
  return url.href.replace(/\/+$/, "");
}

function shopKeyOf(api: string, apiKey: string): string {
  return `${api}#${createHash("sha256").update(apiKey).digest("hex").slice(0, 16)}`;
}

/**
 * Resolves the API target of `shop` (or of the default shop) from stack config, falling back to the
 * environment. Called at operation time in the provider process, so nothing is captured at module load.
 */
export function resolveShop(
  shop: string | undefined,
  config: ConfigSource | undefined,
  env: NodeJS.ProcessEnv,
): ShopTarget {
  const defaultBase = lookup("baseUrl", config, env);
  let apiKey: string;
  let baseUrl: string | undefined = defaultBase?.value;
  let baseSource: string = defaultBase?.source ?? SETTINGS.baseUrl.config;
  let pin: ShopPin | undefined;
  if (shop === undefined) {
    const key = lookup("apiKey", config, env);
    if (key === undefined) {
      throw new ShippingConfigError(
        SETTINGS.apiKey.config,
        "is not set, so the default shop has no API key. Set it with `pulumi config set --secret shipping:apiKey <key>` or the SHIPPING_API_KEY environment variable, or give the resource a `shop` of shipping:shops",
      );
    }
    apiKey = key.value;
    const pinned = lookup("shopId", config, env);
    if (pinned !== undefined) pin = { shopId: pinned.value, setting: pinned.source };
  } else {
    const shops = parseJsonSetting("shops", shopsSchema, config, env) ?? {};
    // An own entry only: "constructor" and its kind name no entry, whatever Object.prototype holds.
    if (!Object.hasOwn(shops, shop)) throw unknownShop(shop, Object.keys(shops));
    // Only this entry is read: a mistake in another shop's entry is that shop's error.
    const source = lookup("shops", config, env)?.source ?? SETTINGS.shops.config;
    const entry = readShopEntry(source, shop, shops[shop]);
    apiKey = entry.apiKey;
    if (entry.shopId !== undefined)
      pin = { shopId: entry.shopId, setting: `${SETTINGS.shops.config}.${shop}.shopId` };
    if (entry.baseUrl !== undefined) {
      baseUrl = entry.baseUrl;
      baseSource = `${SETTINGS.shops.config}.${shop}.baseUrl`;
    }
  }
  if (baseUrl === undefined) {
    throw new ShippingConfigError(
      SETTINGS.baseUrl.config,
      "is not set. Set it with `pulumi config set shipping:baseUrl https://<api host>` or the SHIPPING_BASE_URL environment variable",
    );
  }
  const validBase = validateBaseUrl(baseUrl, baseSource);
  const caCertificates = lookup("caCertificates", config, env)?.value;
  const timeouts = parseJsonSetting("timeouts", timeoutsSchema, config, env);
  const retry = parseJsonSetting("retry", retrySchema, config, env);
  const api = canonicalApi(validBase);
  return {
    api,
    shopKey: shopKeyOf(api, apiKey),
    label: shop ?? "(default)",
    baseUrl: validBase,
    baseUrlSetting: baseSource,
    apiKey,
    authScheme: authSchemeSetting(config, env),
    ...(caCertificates !== undefined ? { caCertificates } : {}),
    ...(timeouts !== undefined ? { timeouts: timeouts as Partial<Timeouts> } : {}),
    ...(retry !== undefined ? { retry: retry as Partial<RetrySettings> } : {}),
    ...(pin !== undefined ? { pin } : {}),
  };
}

/**
 * A shop name that `shipping:shops` lacks: the nearest configured name when it looks like a misspelling of
 * one, else how to add it.
 */
function unknownShop(shop: string, configured: readonly string[]): ShippingConfigError {
  const nearest = suggestName(shop, [...configured].sort());
  const listed = configured.length === 0 ? "none is configured" : `configured: ${configured.join(", ")}`;
  if (nearest !== undefined)
    return new ShippingConfigError(
      SETTINGS.shops.config,
      `has no shop "${shop}"; did you mean "${nearest}"? (${listed})`,
    );
  return new ShippingConfigError(
    SETTINGS.shops.config,
    `has no shop "${shop}" (${listed}). Add it with \`pulumi config set --secret --path 'shipping:shops.${shop}.apiKey' <key>\` (or the SHIPPING_SHOPS environment variable, a JSON object)`,
  );
}

/**
 * Every shop the configuration reaches: the default shop (when `shipping:apiKey` is set) and each entry of
 * `shipping:shops`. Entries that cannot be resolved are left out.
 */
export function configuredTargets(config: ConfigSource | undefined, env: NodeJS.ProcessEnv): ShopTarget[] {
  const names: (string | undefined)[] = [undefined];
  try {
    names.push(...Object.keys(parseJsonSetting("shops", shopsSchema, config, env) ?? {}).sort());
  } catch {
    // An unreadable shops setting reaches no shop; resolveShop reports it where a resource names a shop.
  }
  const targets: ShopTarget[] = [];
  for (const name of names) {
    try {
      targets.push(resolveShop(name, config, env));
    } catch {
      // Not configured: it reaches nothing.
    }
  }
  return targets;
}
