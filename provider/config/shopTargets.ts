/**
 * The shops the settings reach, resolved once per value of the settings. Settings are read at call time (stack
 * config, then the environment), but parsing `shipping:shops` and hashing keys for every call cost a destroy of
 * 300 shops 55 s of CPU: each delete's decision looks at every configured shop.
 */
import { type ConfigSource, configuredTargets, resolveShop, SETTINGS, type ShopTarget } from "./settings";

/** A shop name, or the default shop. */
type ShopName = string | undefined;

/** Resolves shop names to targets, remembering the answers while the settings they come from stay the same. */
export class ShopTargets {
  readonly #config: () => ConfigSource | undefined;
  readonly #env: NodeJS.ProcessEnv;
  /** The raw settings the cached answers were resolved from (stack config, then environment, per setting). */
  #raw: (string | undefined)[] = [];
  readonly #resolved = new Map<ShopName, ShopTarget>();
  #configured: ShopTarget[] | undefined;

  /** `config`: the stack config of the moment (set by `configure`); `env`: the fallback, read at call time. */
  constructor(config: () => ConfigSource | undefined, env: NodeJS.ProcessEnv) {
    this.#config = config;
    this.#env = env;
  }

  /** The target of `shop` (undefined: the default shop); throws as {@link resolveShop} does, never cached. */
  resolve(shop: ShopName): ShopTarget {
    this.#forgetIfChanged();
    const known = this.#resolved.get(shop);
    if (known !== undefined) return known;
    const target = resolveShop(shop, this.#config(), this.#env);
    this.#resolved.set(shop, target);
    return target;
  }

  /** Every shop the configuration reaches ({@link configuredTargets}). */
  configured(): ShopTarget[] {
    this.#forgetIfChanged();
    this.#configured ??= configuredTargets(this.#config(), this.#env);
    return this.#configured;
  }

  #forgetIfChanged(): void {
    const config = this.#config();
    const raw = Object.values(SETTINGS).flatMap((s) => [config?.(s.config), this.#env[s.env]]);
    if (raw.length === this.#raw.length && raw.every((value, i) => value === this.#raw[i])) return;
    this.#raw = raw;
    this.#resolved.clear();
    this.#configured = undefined;
  }
}
