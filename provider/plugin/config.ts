/**
 * The provider's configuration under the plugin host: the `shipping:*` stack config (default provider) or an
 * explicit `pulumi:providers:shipping` resource's inputs, with the same settings and environment fallbacks as
 * the dynamic host (settings.ts). The keys arrive without the namespace (`apiKey`); object settings
 * (`shops`, `timeouts`, `retry`) arrive as JSON text from stack config or as objects from a program, and are
 * handed to the settings as JSON text either way.
 */
import { meantSetting, NAMESPACE, SETTING_NAMES, unknownSettingError } from "../config/configKeys";
import { type ConfigSource, SETTINGS } from "../config/settings";
import type { CheckFailure } from "../inputs/lifecycle";
import type { Unwrapped } from "./values";

/** The settings whose values are credentials: secret in the provider's state whatever the program said. */
export const SECRET_SETTINGS: readonly string[] = [SETTINGS.apiKey.config, SETTINGS.shops.config].map((key) =>
  key.slice(key.indexOf(":") + 1),
);

/** Keys the engine adds to every provider's inputs, which are no setting of this package. */
const ENGINE_KEYS = new Set(["version", "pluginDownloadURL"]);

/**
 * CheckConfig's answer: the inputs as given, with every credential setting marked secret (the engine does not
 * apply the schema's `secret` to the default provider's inputs: a plain `pulumi config set shipping:apiKey`
 * would land in the state in plain text).
 */
export function checkedConfig(news: Unwrapped): { values: Record<string, unknown>; secret: Set<string> } {
  const secret = new Set(news.secret);
  for (const key of SECRET_SETTINGS) if (news.values[key] !== undefined) secret.add(key);
  return { values: news.values, secret };
}

/**
 * The provider's config keys that look like a misspelt setting (`shopID`, `shops.acme.apikey` set without
 * `--path`), each a failure naming the setting meant: ignored, they would leave a shop unpinned or keyless.
 * Other unknown keys pass: the engine hands the provider every key of its namespace, and a project named
 * `shipping` keeps its own config there.
 */
export function misspeltSettings(values: Record<string, unknown>): CheckFailure[] {
  return Object.keys(values)
    .filter((key) => !ENGINE_KEYS.has(key) && !SETTING_NAMES.includes(key) && meantSetting(key) !== undefined)
    .flatMap((key) => {
      const error = unknownSettingError(`${NAMESPACE}:${key}`);
      return error === undefined ? [] : [{ property: key, reason: error.message }];
    });
}

/** The settings as `configure` receives them: `shipping:<key>` to its text, read at call time. */
export function configSource(
  args: Record<string, unknown>,
  variables: ReadonlyMap<string, string>,
): ConfigSource {
  return (fullKey) => {
    const key = fullKey.slice(fullKey.indexOf(":") + 1);
    if (ENGINE_KEYS.has(key)) return undefined;
    const value = args[key];
    if (value === undefined || value === null) return variables.get(`${fullKey.replace(":", ":config:")}`);
    return typeof value === "string" ? value : JSON.stringify(value);
  };
}

/** The settings whose value differs between the provider's recorded and new inputs (engine keys aside). */
export function configChanges(olds: Record<string, unknown>, news: Record<string, unknown>): string[] {
  const keys = new Set([...Object.keys(olds), ...Object.keys(news)]);
  return [...keys].filter(
    (key) => !ENGINE_KEYS.has(key) && JSON.stringify(olds[key]) !== JSON.stringify(news[key]),
  );
}
