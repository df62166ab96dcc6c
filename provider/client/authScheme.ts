/**
 * The spec writes the Authorization scheme word as `basic` in the endpoint reference and `bearer` in the
 * examples; which one the service takes is not shown. `auto` tries `bearer` (the word the production
 * documentation names), falls back to `basic` once on a 401, and remembers per API origin the word of the
 * last success ({@link AuthSchemeMemory}). Requests run concurrently, so a request sent before the word was learned can get its 401
 * after: it then retries with the learned word.
 */
export type AuthSchemeSetting = "auto" | "bearer" | "basic";

/** A scheme word actually sent. */
export type AuthScheme = Exclude<AuthSchemeSetting, "auto">;

/** The scheme `auto` starts with. */
const FIRST_AUTO_SCHEME: AuthScheme = "bearer";

/**
 * What `auto` learned: the word each API origin last accepted. One per deployment (the provider owns it and
 * shares it between the clients of all shops); a client made without one learns for itself.
 */
export class AuthSchemeMemory {
  readonly #learned = new Map<string, AuthScheme>();

  /** The scheme to send first for `origin`. */
  initial(setting: AuthSchemeSetting, origin: string): AuthScheme {
    if (setting !== "auto") return setting;
    return this.#learned.get(origin) ?? FIRST_AUTO_SCHEME;
  }

  /**
   * The word for the one retry `auto` allows after `tried` got a 401; undefined when there is none.
   * - Nothing learned yet: the other word.
   * - Another request learned a different word while this one was in flight: that word.
   * - The learned word is the one that failed: none (the key is wrong, a second try would fail too).
   */
  fallback(setting: AuthSchemeSetting, origin: string, tried: AuthScheme): AuthScheme | undefined {
    if (setting !== "auto") return undefined;
    const learned = this.#learned.get(origin);
    if (learned === undefined) return tried === "bearer" ? "basic" : "bearer";
    return learned === tried ? undefined : learned;
  }

  /**
   * Records that `origin` accepted `scheme`: call it on a success only. An error answer other than 401 does
   * not prove the word was accepted (a gateway's 503 or an unknown path's 404 come before authentication).
   */
  remember(setting: AuthSchemeSetting, origin: string, scheme: AuthScheme): void {
    if (setting === "auto") this.#learned.set(origin, scheme);
  }
}

/** The Authorization header value: the scheme word and the base64 of the key. */
export function authorizationHeader(scheme: AuthScheme, apiKey: string): string {
  return `${scheme} ${Buffer.from(apiKey, "utf8").toString("base64")}`;
}
