/**
 * The key rule of the `shipping:` stack-config namespace: every key in it is one of {@link SETTINGS}. A key
 * that is not (`shipping:shopID` for `shipping:shopId`) would be ignored, and what it was meant to do (pin a
 * shop, set a key) silently not done; so it is an error that names the key, the rule, the nearest setting
 * and the fix. Never a value: the key may hold a credential.
 */
import { ShippingConfigError } from "../errors/configError";
import { SETTINGS } from "./settings";
import { SHOP_ENTRY_KEYS } from "./shopEntry";
import { suggestName } from "./suggest";

/** The stack-config namespace of the settings (`shipping:apiKey`). */
export const NAMESPACE = "shipping";
const PREFIX = `${NAMESPACE}:`;

/** The names of the settings under `shipping:`: `apiKey`, `baseUrl`, ... */
export const SETTING_NAMES: readonly string[] = Object.values(SETTINGS).map((s) =>
  s.config.slice(PREFIX.length),
);
/** The settings whose value is a JSON object, set field by field with `pulumi config set --path`. */
const OBJECT_SETTINGS: readonly string[] = ["shops", "timeouts", "retry"];

const RULE = `the settings under ${PREFIX} are ${SETTING_NAMES.join(", ")}`;

/**
 * The setting `name` (the part after `shipping:`) most likely means, as a full key or `--path` path: a case or
 * spelling slip of a setting (`shopID`), or a field of an object setting set without `--path`
 * (`shops.globex.apikey`: one key whose name holds dots), its entry's key corrected too. Undefined: none near.
 */
export function meantSetting(name: string): { key: string; path: boolean } | undefined {
  const [head = "", ...rest] = name.split(".");
  const setting = SETTING_NAMES.includes(head) ? head : suggestName(head, SETTING_NAMES);
  if (rest.length === 0)
    return setting === undefined ? undefined : { key: `${PREFIX}${setting}`, path: false };
  if (setting === undefined || !OBJECT_SETTINGS.includes(setting)) return undefined;
  const [shop, entryKey, ...deeper] = rest;
  const fixedKey =
    setting === "shops" && entryKey !== undefined && deeper.length === 0
      ? (suggestName(entryKey, SHOP_ENTRY_KEYS) ?? entryKey)
      : entryKey;
  const fields = [shop, fixedKey, ...deeper].filter((part) => part !== undefined);
  return { key: `${PREFIX}${[setting, ...fields].join(".")}`, path: true };
}

/**
 * The error for one stack-config key, or undefined when the rule holds: a key of another namespace, or a
 * setting. Names the key, the rule, what it most likely means ({@link meantSetting}) and how to fix it.
 */
export function unknownSettingError(fullKey: string): ShippingConfigError | undefined {
  if (!fullKey.startsWith(PREFIX)) return undefined;
  const name = fullKey.slice(PREFIX.length);
  if (SETTING_NAMES.includes(name)) return undefined;
  const meant = meantSetting(name);
  const remove = `\`pulumi config rm ${fullKey}\``;
  if (meant === undefined)
    return new ShippingConfigError(
      fullKey,
      `is not a setting of pulumi-shipping-webhooks, so nothing reads it (${RULE}). Remove it with ${remove}`,
    );
  const secret = meant.key === SETTINGS.apiKey.config || meant.key.startsWith(SETTINGS.shops.config);
  const set = `\`pulumi config set${secret ? " --secret" : ""}${meant.path ? ` --path '${meant.key}'` : ` ${meant.key}`} <value>\``;
  const why = meant.path
    ? `is one key whose name holds dots (set without --path), not a field of ${meant.key.split(".")[0]}, so nothing reads it`
    : "is not a setting of pulumi-shipping-webhooks, so nothing reads it";
  return new ShippingConfigError(
    fullKey,
    `${why} (${RULE}); did you mean \`${meant.key}\`? Remove it with ${remove} and set ${set}`,
  );
}

/**
 * The error for the stack config's keys (all namespaces: only `shipping:` is looked at): the first key that
 * breaks the rule, naming the others too; undefined when none does. A project named `shipping` shares the
 * namespace with its program's own config (`shipping:hooks`), so its keys cannot be told apart: none is
 * reported.
 */
export function unknownSettingsError(
  keys: Iterable<string>,
  project?: string,
): ShippingConfigError | undefined {
  if (project === NAMESPACE) return undefined;
  const errors = [...keys].sort().flatMap((key) => unknownSettingError(key) ?? []);
  const [first, ...others] = errors;
  if (first === undefined || others.length === 0) return first;
  const also = others.map((e) => e.setting).join(", ");
  return new ShippingConfigError(
    first.setting,
    `${first.message.slice(first.setting.length + 2)} (also not settings: ${also})`,
  );
}
