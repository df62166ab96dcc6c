/**
 * Authentication: `Authorization: <word> <base64(api key)>`, and the redaction that keeps keys out of the
 * request log and of error messages.
 */
import { EncodedKeyFinder } from "./encodedKeys";
import { ApiError, ERROR_CODES } from "./errors";
import type { ShopSeed, Switches } from "./types";

/** Who a valid key belongs to and what it may do. */
export interface Identity {
  shop: string;
  role: "read-write" | "read-only";
  /** The raw key: used for rate-limit buckets; never logged. */
  key: string;
}

/** Placeholder that replaces credentials wherever they would be recorded. */
export const REDACTED = "[REDACTED]";

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const SCHEME_WORD = /^[A-Za-z][A-Za-z0-9._~+-]{0,19}$/;
const AUTH_TITLE = "Invalid Authorization header";

/** The keys of all shops, indexed by key and by base64 token; also knows every secret string to scrub. */
export class KeyRing {
  readonly #byKey = new Map<string, Identity>();
  readonly #byToken = new Map<string, Identity>();
  readonly #lowerSecrets = new Set<string>();
  /** Matches any secret (longest first); `find` for tests, `replaceAll` for replacing. */
  readonly #find: RegExp;
  readonly #replaceAll: RegExp;
  /** Recently scrubbed texts that hold no secret. */
  readonly #clean = new Set<string>();
  /** Finds keys hidden in percent-encoding or non-canonical base64. */
  readonly #encoded: EncodedKeyFinder;

  /** Index the keys of the given shops. */
  constructor(shops: ShopSeed[]) {
    const secrets = new Set<string>();
    for (const shop of shops) {
      const roles: Array<[string[], Identity["role"]]> = [
        [shop.keys.readWrite, "read-write"],
        [shop.keys.readOnly ?? [], "read-only"],
      ];
      for (const [keys, role] of roles) {
        for (const key of keys) {
          const identity: Identity = { shop: shop.name, role, key };
          const token = Buffer.from(key, "utf8").toString("base64");
          this.#byKey.set(key, identity);
          this.#byToken.set(token, identity);
          for (const secret of [key, token, token.replace(/=+$/, "")]) secrets.add(secret);
        }
      }
    }
    for (const secret of secrets) this.#lowerSecrets.add(secret.toLowerCase());
    this.#encoded = new EncodedKeyFinder(this.#byKey.keys());
    // Longest first, so a key that contains another is replaced whole.
    const source = [...secrets]
      .sort((a, b) => b.length - a.length)
      .map((secret) => secret.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
      .join("|");
    this.#find = new RegExp(source === "" ? "(?!)" : source);
    this.#replaceAll = new RegExp(this.#find.source, "g");
  }

  /** Resolve a base64 token (padded or not) to its identity. */
  identifyToken(token: string): Identity | undefined {
    const direct = this.#byToken.get(token);
    if (direct !== undefined || !BASE64.test(token)) return direct;
    return this.#byKey.get(Buffer.from(token, "base64").toString("utf8"));
  }

  /** Whether `value` is a raw key (used to give a helpful 401 without echoing it). */
  isRawKey(value: string): boolean {
    return this.#byKey.has(value);
  }

  /** Whether `word` equals any secret, case-insensitively. */
  isSecret(word: string): boolean {
    return this.#lowerSecrets.has(word.toLowerCase());
  }

  /**
   * Replace every key and base64 token inside `text` with [REDACTED], and every run of URL or base64
   * characters that hides a key: percent-encoded, or base64 in any spelling Node decodes (unpadded, extra
   * padding, unused bits set, the URL-safe alphabet, at any alignment). May over-redact, never under.
   */
  scrub(text: string): string {
    if (this.#clean.has(text)) return text;
    const plain = this.#find.test(text) ? text.replace(this.#replaceAll, REDACTED) : text;
    const scrubbed = plain.replace(ENCODED_RUN, (run) =>
      this.#encoded.hides(run, (decoded) => this.#find.test(decoded)) ? REDACTED : run,
    );
    // Header values repeat from request to request: remember short clean ones (bounded).
    if (scrubbed === text && text.length <= CLEAN_CACHE_MAX_CHARS) {
      if (this.#clean.size >= CLEAN_CACHE_ENTRIES) this.#clean.clear();
      this.#clean.add(text);
    }
    return scrubbed;
  }

  /** Whether `text` holds a key or a token, or is one, case-insensitively (for words recorded as is). */
  mentionsSecret(text: string): boolean {
    return this.isSecret(text) || this.scrub(text) !== text;
  }
}

/** Texts up to this many characters that hold no secret are remembered, at most CLEAN_CACHE_ENTRIES. */
const CLEAN_CACHE_MAX_CHARS = 256;
/** Size of the cache of clean texts (cleared when full). */
const CLEAN_CACHE_ENTRIES = 1024;

/** Runs of characters that can carry a key in encoded form: base64 (both alphabets), padding, percent. */
const ENCODED_RUN = /[A-Za-z0-9+/_%=-]+/g;

/** The scheme word of an Authorization value, lower-case, if it is safe to record (a short word, not a key). */
export function schemeWord(value: string, ring: KeyRing): string | undefined {
  const word = value.trim().split(/\s+/, 1)[0] ?? "";
  return SCHEME_WORD.test(word) && !ring.mentionsSecret(word) ? word.toLowerCase() : undefined;
}

/** The Authorization value as the request log shows it: "<scheme> [REDACTED]" or "[REDACTED]". */
export function redactAuthorization(value: string, ring: KeyRing): string {
  const word = value.trim().split(/\s+/, 1)[0] ?? "";
  return SCHEME_WORD.test(word) && !ring.mentionsSecret(word) ? `${word} ${REDACTED}` : REDACTED;
}

function allowedWords(setting: Switches["authScheme"]): string[] {
  return setting === "both" ? ["bearer", "basic"] : [setting];
}

/** Realm named in `WWW-Authenticate`. */
const REALM = "Shipping Service API";

/** The `WWW-Authenticate` value every 401 carries (RFC 9110 11.6.1): one challenge per accepted scheme word. */
export function wwwAuthenticate(setting: Switches["authScheme"]): string {
  return allowedWords(setting)
    .map((word) => `${word === "basic" ? "Basic" : "Bearer"} realm="${REALM}"`)
    .join(", ");
}

function unauthorized(message: string): ApiError {
  return new ApiError(401, ERROR_CODES.invalidAuthorization, AUTH_TITLE, message);
}

/**
 * Check the Authorization header (`lines`: how many Authorization lines the request had); answer the
 * identity or throw a 401 ApiError. A header sent more than once is refused whatever its values (which one
 * would win is a guess a client must not rely on). Never echoes the key.
 */
export function authenticate(
  header: string | undefined,
  setting: Switches["authScheme"],
  ring: KeyRing,
  lines = 1,
): Identity {
  const words = allowedWords(setting);
  const hint = `send ${words.map((w) => `"Authorization: ${w} <base64 of your API key>"`).join(" or ")}`;
  if (lines > 1)
    throw unauthorized(`Authorization header is sent ${lines} times; send it exactly once: ${hint}`);
  if (header === undefined || header.trim() === "") {
    throw unauthorized(`Authorization header is missing; ${hint}`);
  }
  const parts = header.trim().split(/\s+/);
  if (parts.length !== 2) throw unauthorized(`Authorization header is malformed; ${hint}`);
  const word = schemeWord(header, ring);
  if (word === undefined || !words.includes(word)) {
    const shown = word === undefined ? "" : ` "${word}"`;
    throw unauthorized(`Authorization scheme${shown} is not accepted; ${hint}`);
  }
  const token = parts[1] ?? "";
  const identity = ring.identifyToken(token);
  if (identity !== undefined) return identity;
  if (ring.isRawKey(token)) {
    throw unauthorized(`Authorization token must be the base64 of the API key, not the key itself; ${hint}`);
  }
  if (!BASE64.test(token)) throw unauthorized(`Authorization token is not valid base64; ${hint}`);
  throw unauthorized("API key is unknown");
}
