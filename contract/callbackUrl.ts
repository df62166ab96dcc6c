/**
 * The callback URL rule of the Shipping Service API (spec section 2: "Must be HTTPS. Must be written in
 * lowercase characters"; rules 3 and 4), as the provider's preview and the simulator's 422 both apply it. On
 * top of the spec's words, a URL is accepted only when RFC 3986 and the WHATWG URL parser (what HTTP clients
 * such as undici call) agree that it is one lowercase HTTPS URL, and the text stored is the address called:
 * no userinfo, no fragment, no character a parser drops, re-encodes or reads as another one.
 * `contract/fixtures/url-refusals.json` records the API's documented verdicts this rule must match.
 */

/** Which rule a refused URL breaks. */
type UrlRuleKind = "not-absolute" | "whitespace" | "not-https" | "not-lowercase" | "userinfo" | "ambiguous";

/** Why a URL is refused: the rule, what exactly is wrong, and an accepted URL to use instead when one exists. */
interface UrlRefusal {
  readonly kind: UrlRuleKind;
  /** What is wrong, e.g. `"\" is read as "/" by URL parsers`. */
  readonly detail: string;
  /** An accepted URL that is most likely meant, if one can be derived. */
  readonly fix?: string;
}

/** Characters RFC 3986 allows anywhere in a URI (besides "%" of a percent-encoding). */
const URI_CHARACTER = /^[a-z0-9\-._~:/?#[\]@!$&'()*+,;=%]$/i;
/** Invisible or layout characters that WHATWG parsing keeps but no reader sees (soft hyphen, zero widths...). */
const INVISIBLE =
  /[\u0080-\u00a0\u00ad\u061c\u115f\u1160\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\ufeff]/u;
/** Percent-encodings of unreserved characters (RFC 3986 2.3), which normalisation decodes. */
const ENCODED_UNRESERVED = /%(2d|2e|3[0-9]|4[1-9a-f]|5[0-9a]|5f|6[1-9a-f]|7[0-9a]|7e)/i;
/** A DNS host name: dot-separated labels of lowercase letters, digits, "-" and "_", one trailing dot allowed. */
const HOST_NAME = /^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*\.?$/;
/** The port HTTPS uses when none is written. */
const HTTPS_DEFAULT_PORT = "443";
const LARGEST_PORT = 65_535;

const codePoint = (c: string): string =>
  `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;

function whitespaceOrControl(url: string): string | undefined {
  for (const c of url) {
    const code = c.codePointAt(0) ?? 0;
    if (code <= 0x20 || code === 0x7f || /\s/u.test(c) || INVISIBLE.test(c))
      return `${codePoint(c)} at index ${url.indexOf(c)}`;
  }
  return undefined;
}

/** What an HTTP client makes of the URL, lowercased, without credentials and fragment; undefined if unparsable. */
function candidate(url: string): string | undefined {
  try {
    const parsed = new URL(url.replace(/^[a-z][a-z0-9+.-]*:[/\\]*/i, "https://"));
    parsed.username = "";
    parsed.password = "";
    parsed.hash = "";
    const global = new RegExp(ENCODED_UNRESERVED.source, "gi");
    return parsed.href.toLowerCase().replace(global, (encoded) => decodeURIComponent(encoded));
  } catch {
    return undefined;
  }
}

/** A refusal before its fix is chosen: the URLs to try as the fix, in order of preference. */
interface Finding {
  readonly kind: UrlRuleKind;
  readonly detail: string;
  readonly fixes: ReadonlyArray<string | undefined>;
}

function refuse(
  kind: UrlRuleKind,
  detail: string,
  url: string,
  ...fixes: Array<string | undefined>
): Finding {
  return { kind, detail, fixes: [...fixes, candidate(url)] };
}

function characterProblem(url: string): string | undefined {
  for (const c of url) {
    if (c === "\\") return `"\\" is read as "/" by URL parsers; write "/" or %5c`;
    if (!URI_CHARACTER.test(c)) {
      return (c.codePointAt(0) ?? 0) > 0x7f
        ? `"${c}" (${codePoint(c)}) is not allowed in a URL (RFC 3986); clients re-encode it`
        : `"${c}" is not allowed in a URL (RFC 3986); write it as ${encodeURIComponent(c).toLowerCase()}`;
    }
  }
  const stray = /%(?![0-9a-f]{2})/i.exec(url);
  if (stray !== null) return `"%" at index ${stray.index} does not start a percent-encoding; write it as %25`;
  return undefined;
}

/** Host and port as written: a DNS name or IP address (no percent-encoding), and a port in 1-65535. */
function authoritySyntaxProblem(host: string, port: string | undefined): string | undefined {
  if (host.includes("%")) return `the host "${host}" is percent-encoded; write its letters as they are`;
  if (!host.startsWith("[") && !HOST_NAME.test(host)) return `the host "${host}" is not a valid host name`;
  if (port === undefined) return undefined;
  if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > LARGEST_PORT)
    return `the port "${port}" is not a number in 1-${LARGEST_PORT}`;
  if (port.startsWith("0")) return `the port "${port}" has a leading zero`;
  return undefined;
}

/** Host and port as called: the WHATWG parser must keep them as written (443 may be written or not). */
function authorityCalledProblem(host: string, port: string | undefined, parsed: URL): string | undefined {
  if (parsed.hostname !== host) return `the host "${host}" is called as "${parsed.hostname}"`;
  const expected = port === undefined || port === HTTPS_DEFAULT_PORT ? "" : port;
  if (parsed.port !== expected) return `the port "${port}" is called as "${parsed.port}"`;
  return undefined;
}

/** Path and query: written as called (no dot segments, no re-encoding, no encoded unreserved characters). */
function pathProblem(rest: string, parsed: URL): string | undefined {
  const query = rest.indexOf("?");
  const path = query === -1 ? rest : rest.slice(0, query);
  const search = query === -1 ? "" : rest.slice(query);
  const encoded = ENCODED_UNRESERVED.exec(rest);
  if (encoded !== null) {
    const plain = decodeURIComponent(encoded[0]);
    return `${encoded[0]} encodes "${plain}", which is the same URL written plainly; write "${plain}"`;
  }
  if ((path === "" ? "/" : path) !== parsed.pathname) {
    const dots = path.split("/").some((segment) => segment === "." || segment === "..");
    return dots
      ? `the path "${path}" has a "." or ".." segment, which clients resolve to "${parsed.pathname}"`
      : `the path "${path}" is called as "${parsed.pathname}"`;
  }
  if (search !== parsed.search) return `the query "${search}" is called as "${parsed.search}"`;
  return undefined;
}

function check(url: string): Finding | undefined {
  if (url === "") return { kind: "not-absolute", detail: "it is empty", fixes: [] };
  const hidden = whitespaceOrControl(url);
  if (hidden !== undefined) return refuse("whitespace", hidden, url, url.replace(/[\s\p{C}]/gu, ""));
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1];
  if (scheme === undefined) return { kind: "not-absolute", detail: "it has no scheme", fixes: [] };
  const afterScheme = url.slice(scheme.length + 1);
  if (scheme.toLowerCase() !== "https") return refuse("not-https", `it uses "${scheme}:"`, url);
  if (url !== url.toLowerCase())
    return refuse("not-lowercase", "it has uppercase letters", url, url.toLowerCase());
  const characters = characterProblem(url);
  if (characters !== undefined) return refuse("ambiguous", characters, url);
  if (!afterScheme.startsWith("//"))
    return refuse("ambiguous", `"https:" is not followed by "//", so parsers disagree on the host`, url);
  const hierarchy = afterScheme.slice(2);
  const authorityEnd = hierarchy.search(/[/?#]/);
  const authority = authorityEnd === -1 ? hierarchy : hierarchy.slice(0, authorityEnd);
  const rest = authorityEnd === -1 ? "" : hierarchy.slice(authorityEnd);
  if (authority === "") {
    if (rest === "") return { kind: "not-absolute", detail: "it has no host", fixes: [] };
    return refuse("ambiguous", `there is no host between "https://" and "${rest[0]}"`, url);
  }
  if (authority.includes("@"))
    return refuse("userinfo", "it has a user name or password before the host", url);
  if (rest.includes("#"))
    return refuse("ambiguous", "the fragment (#...) is never sent to the receiver", url);
  const portAt = authority.startsWith("[") ? authority.indexOf("]:") + 1 : authority.lastIndexOf(":");
  const host = portAt > 0 ? authority.slice(0, portAt) : authority;
  const port = portAt > 0 ? authority.slice(portAt + 1) : undefined;
  const syntax = authoritySyntaxProblem(host, port);
  if (syntax !== undefined) return refuse("ambiguous", syntax, url);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { kind: "not-absolute", detail: "URL parsers refuse it", fixes: [] };
  }
  const problem = authorityCalledProblem(host, port, parsed) ?? pathProblem(rest, parsed);
  return problem === undefined ? undefined : refuse("ambiguous", problem, url);
}

/** Why `url` is not acceptable as a callback URL (with an accepted URL to use instead, if any), or undefined. */
export function callbackUrlRefusal(url: string): UrlRefusal | undefined {
  const finding = check(url);
  if (finding === undefined) return undefined;
  const fix = finding.fixes.find((option) => option !== undefined && check(option) === undefined);
  return fix === undefined
    ? { kind: finding.kind, detail: finding.detail }
    : { kind: finding.kind, detail: finding.detail, fix };
}
