/**
 * The spec writes the Authorization scheme word as `basic` in the endpoint reference and `bearer` in the
 * examples; which one the service takes is not shown. `auto` tries `bearer` (the word the production
 * documentation names), falls back to `basic` once on a 401, and remembers per API origin what worked.
 */
export type AuthSchemeSetting = "auto" | "bearer" | "basic";

/** A scheme word actually sent. */
export type AuthScheme = Exclude<AuthSchemeSetting, "auto">;

/** The scheme `auto` starts with. */
export const FIRST_AUTO_SCHEME: AuthScheme = "bearer";

const learnedSchemes = new Map<string, AuthScheme>();

/** The scheme to send first for `origin`. */
export function initialScheme(setting: AuthSchemeSetting, origin: string): AuthScheme {
  if (setting !== "auto") return setting;
  return learnedSchemes.get(origin) ?? FIRST_AUTO_SCHEME;
}

/** The other word, for the one fallback `auto` allows after a 401; undefined when there is none. */
export function fallbackScheme(
  setting: AuthSchemeSetting,
  origin: string,
  tried: AuthScheme,
): AuthScheme | undefined {
  if (setting !== "auto" || learnedSchemes.has(origin)) return undefined;
  return tried === "bearer" ? "basic" : "bearer";
}

/** Records that `origin` answered something other than 401 to `scheme`. */
export function rememberScheme(setting: AuthSchemeSetting, origin: string, scheme: AuthScheme): void {
  if (setting === "auto") learnedSchemes.set(origin, scheme);
}

/** The Authorization header value: the scheme word and the base64 of the key. */
export function authorizationHeader(scheme: AuthScheme, apiKey: string): string {
  return `${scheme} ${Buffer.from(apiKey, "utf8").toString("base64")}`;
}

/** Forgets what was learned (tests). */
export function forgetLearnedSchemes(): void {
  learnedSchemes.clear();
}
