import fc from "fast-check";
import { HOOKS } from "../../provider/inputs/hooks";
import { UNKNOWN_VALUE } from "../../provider/inputs/lifecycle";
import { anyText } from "../../scripts/fuzz/badParts";

/** Characters that URL parsing drops or encodes silently, or that are invisible in a diff. */
const SNEAKY_CHARACTERS = [
  " ",
  "\t",
  "\n",
  "\r",
  "\u0000",
  "\u001f",
  "\u007f",
  "\u00a0",
  "\u2028",
  "\u3000",
  "\ufeff",
  "\u00ad",
  "\u0085",
  "\u200b",
  "\\",
  "#",
  "%",
  "%41",
  "/../",
  "@",
];

const scheme = fc.constantFrom(
  "https",
  "http",
  "HTTPS",
  "Https",
  "ftp",
  "wss",
  "javascript",
  "file",
  "h ttps",
  "",
);
const separator = fc.constantFrom("://", "://", "://", ":", ":/", ":///", "//", ":\\\\", "");
const userinfo = fc.constantFrom("", "", "", "", "user@", "user:pw@", ":@", "@", "a%40b:c@");
/** A DNS label of 62 to 65 characters of one letter or digit: the limit (63, RFC 1035 2.3.4) from both sides. */
const longLabel = fc
  .tuple(fc.integer({ min: 62, max: 65 }), fc.constantFrom(..."a7_"))
  .map(([n, c]) => c.repeat(n));
/** A host name with a label at the length limit, first or last. */
const limitHost = fc
  .tuple(longLabel, fc.domain(), fc.boolean())
  .map(([label, domain, first]) => (first ? `${label}.${domain}` : `${domain}.${label}`));
const host = fc.oneof(
  fc.domain(),
  limitHost,
  fc.constantFrom(
    "127.0.0.1",
    "localhost",
    "[::1]",
    "xn--bcher-kva.example",
    "EXAMPLE.com",
    "a..b",
    "",
    "999.1.1.1",
    "%65xample.com",
    "0x7f.1",
    "[0:0::1]",
    "b\u00fccher.example",
  ),
  fc.string({ unit: "grapheme", maxLength: 8 }),
);
/** Ports at the rule's limits: 0 and 1, the HTTPS port written out (443), 65535 and 65536. */
const limitPort = fc.constantFrom(":0", ":1", ":443", ":65535", ":65536");
const port = fc.oneof(
  fc.constant(""),
  fc.nat(70_000).map((n) => `:${n}`),
  limitPort,
  fc.constantFrom(":", ":abc", ":-1"),
);
const tail = fc.oneof(
  fc.webPath(),
  fc.string({ unit: "binary-ascii", maxLength: 12 }).map((s) => `/${s}`),
  fc.string({ unit: "grapheme", maxLength: 12 }).map((s) => `/${s}`),
  fc.webQueryParameters().map((q) => `/?${q}`),
  fc.webFragments().map((f) => `/#${f}`),
);

/** `s` with `c` inserted at a position derived from `at`. */
function insert(s: string, at: number, c: string): string {
  const i = at % (s.length + 1);
  return s.slice(0, i) + c + s.slice(i);
}

/** An HTTPS URL with a percent-encoding of any byte, either case, where a path or query may hold one. */
const percentEncoded = fc
  .tuple(
    fc.webUrl({ validSchemes: ["https"], withQueryParameters: true }),
    // Half of them of an unreserved character (RFC 3986 2.3), the case that is easiest to get wrong.
    fc.oneof(
      fc.nat(255),
      fc.constantFrom(..."-._~az09AZ").map((c) => c.charCodeAt(0)),
    ),
    fc.boolean(),
  )
  .map(([url, byte, upper]) => {
    const hex = byte.toString(16).padStart(2, "0");
    return `${url}/%${upper ? hex.toUpperCase() : hex}x`;
  });

/**
 * An HTTPS URL with a "%" followed by one hex digit and then no second one (a letter past "f", "/", "?", "=",
 * the end): no percent-encoding, in a path or a query.
 */
const strayPercent = fc
  .tuple(
    fc.webUrl({ validSchemes: ["https"], withQueryParameters: true }),
    fc.constantFrom(..."0123456789abcdef"),
    fc.constantFrom("", "x", "g", "z", "/", "?", "=", "-", ".", "~"),
  )
  .map(([url, hex, next]) => `${url}${url.includes("?") ? "&q=" : "/"}%${hex}${next}`);

/** Well-formed HTTPS URLs at the rule's limits: a port, a host label's length, or both. */
const atTheLimits = fc
  .tuple(fc.oneof(fc.domain(), limitHost), fc.oneof(fc.constant(""), limitPort), fc.webPath())
  .map(([name, at, path]) => `https://${name}${at}${path}`);

/** URLs assembled from plausible and implausible parts. */
const assembled = fc.tuple(scheme, separator, userinfo, host, port, tail).map((parts) => parts.join(""));

/**
 * Strings that look more or less like callback URLs: generated web URLs, URLs built from odd parts, with
 * random case, with a whitespace or control character slipped in, and arbitrary (binary) strings.
 */
export const urlLike: fc.Arbitrary<string> = fc.oneof(
  fc.webUrl({ validSchemes: ["https"], withQueryParameters: true, withFragments: true }),
  fc.webUrl({ validSchemes: ["https", "http", "ftp"], withQueryParameters: true, withFragments: true }),
  assembled,
  fc.mixedCase(fc.webUrl({ validSchemes: ["https", "http"] })),
  fc
    .tuple(
      fc.oneof(fc.webUrl({ validSchemes: ["https"] }), assembled),
      fc.nat(),
      fc.constantFrom(...SNEAKY_CHARACTERS),
    )
    .map(([url, at, c]) => insert(url, at, c)),
  percentEncoded,
  strayPercent,
  atTheLimits,
  anyText(40),
  fc.string({ maxLength: 40 }).map((s) => `https://${s}`),
);

/** Values an input property may hold: right, wrong, of any type, or unknown (preview). */
const inputValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...HOOKS, UNKNOWN_VALUE, "", "Order_Status_Change", "acme", "Acme Shop"),
  urlLike,
  fc.anything({ maxDepth: 2 }),
  anyText(100),
);

/** Inputs of a resource: any subset of hook, url and shop with any values, plus unrelated keys. */
export const resourceInputs: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(
    fc.record({ hook: inputValue, url: inputValue, shop: inputValue }, { requiredKeys: [] }),
    fc.dictionary(fc.string({ maxLength: 8 }), fc.anything({ maxDepth: 1 }), { maxKeys: 3 }),
  )
  .map(([known, extra]) => ({ ...extra, ...known }));
