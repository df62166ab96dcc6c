/** Placeholders, credentials and create bodies (valid, ambiguous, anything) shared by the fuzzer's grammars. */
import fc from "fast-check";
import { HOOKS } from "../../provider/inputs/hooks";

/** Placeholders replaced per lane when a request is sent. */
export const PLACEHOLDERS = {
  /** The lane's shop's read-write key (its base64 in headers). */
  key: "fuzz-placeholder-rw",
  /** The lane's shop's read-only key. */
  readOnlyKey: "fuzz-placeholder-ro",
  /** The lane's own subscription ids, all, joined with ";" (a never-issued id when it has none). */
  ownIds: "777000001;777000002",
  /** The first of the lane's own ids. */
  ownId: "777000003",
  /** Ids of the fixed other shop (never written by the fuzzer). */
  otherIds: "888000001",
  /** The listening address, host:port. */
  authority: "fuzz-placeholder-authority",
} as const;

const b64 = (text: string): string => Buffer.from(text, "utf8").toString("base64");
/** A valid Authorization for the lane's read-write key. */
export const GOOD_AUTH = `bearer ${b64(PLACEHOLDERS.key)}`;
/** The Content-Type of a JSON body. */
export const JSON_TYPE = "application/json; charset=utf-8";

/** Callback URLs the API accepts (RFC 3986 and client parsers agree; lowercase https). */
const GOOD_URLS = [
  "https://hooks.example.com/orders",
  "https://a.example/x?token=abc123",
  "https://127.0.0.1:8443/hook",
  "https://[::1]/hook",
  "https://x.example:443/a;b=c/%c3%a9",
];
/** Callback URLs the API must refuse, from issue 14: they are not what they look like. */
const AMBIGUOUS_URLS = [
  "https:example.com",
  "https:/x.com",
  "https:///x.com",
  "https:\\\\x.com",
  "https://x.com\\a",
  "https://%65xample.com/",
  "https://ex\u00adample.com/",
  "https://example.com/\u0085",
  "https://exa\u200bmple.com/",
  "https://user:pw@example.com/",
  "https://example.com/#frag",
  "https://example.com/a/../b",
  "http://example.com/",
  "https://Example.com/",
];

const hook = fc.constantFrom(...HOOKS);
const goodItem = fc.record({ hook, url: fc.constantFrom(...GOOD_URLS) });
/** Any URL-like string: a good one, a generated web URL (valid or not), or an ambiguous one. */
const anyUrl = fc.oneof(
  fc.constantFrom(...GOOD_URLS),
  fc.webUrl({ validSchemes: ["https"], withQueryParameters: true }).map((u) => u.toLowerCase()),
  fc.constantFrom(...AMBIGUOUS_URLS),
);
/** Extra JSON nested `depth` levels deep, as text. */
const nested = fc
  .tuple(fc.integer({ min: 1, max: 64 }), fc.constantFrom("[", '{"a":'))
  .map(([depth, open]) => `${open.repeat(depth)}1${(open === "[" ? "]" : "}").repeat(depth)}`);

/** Valid create bodies: 1-3 distinct hooks with accepted URLs, sometimes an extra field or deep extra JSON. */
export const validCreate = fc
  .tuple(fc.uniqueArray(goodItem, { minLength: 1, maxLength: 3, selector: (i) => i.hook }), fc.option(nested))
  .map(([items, extra]) => {
    const text = JSON.stringify({ data: { webhook_subscriptions: items } });
    return extra === null ? text : `${text.slice(0, -1)},"extra":${extra}}`;
  });
/** Create bodies whose URL may or may not be accepted (any answer but 5xx goes). */
export const anyCreate = fc
  .uniqueArray(fc.record({ hook, url: anyUrl }), { minLength: 1, maxLength: 3, selector: (i) => i.hook })
  .map((items) => JSON.stringify({ data: { webhook_subscriptions: items } }));
/** Create bodies with an ambiguous URL: refused (422) by construction. */
export const ambiguousCreate = fc
  .tuple(hook, fc.constantFrom(...AMBIGUOUS_URLS))
  .map(([h, url]) => JSON.stringify({ data: { webhook_subscriptions: [{ hook: h, url }] } }));
