/**
 * The malformed parts of requests to the simulator: bodies that are not JSON, JSON that is not a valid
 * create request, oversized bodies, and id lists the API must refuse. Each is invalid by an oracle written
 * here (JSON.parse, the spec's id grammar), not by the simulator's own validation.
 */
import fc from "fast-check";
import { HOOKS } from "../../provider/inputs/hooks";

/** A well-formed POST body (one valid subscription). */
export const VALID_POST_BODY = JSON.stringify({
  data: { webhook_subscriptions: [{ hook: "order_status_change", url: "https://ok.example/hook" }] },
});

/** The simulator's body limit (1 MiB); a huge body is a valid create request padded past it. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** A valid create request padded with an extra field to exactly `bytes` bytes. */
export function paddedBody(bytes: number): string {
  const head = VALID_POST_BODY.slice(0, -1);
  const pad = Math.max(0, bytes - head.length - ',"pad":""}'.length);
  return `${head},"pad":"${"a".repeat(pad)}"}`;
}

/**
 * Strings of any code points (lone surrogates included), as fast-check's `unit: "binary"` but without its
 * one-off table of every code point, which costs seconds of start-up on a busy machine.
 */
export function anyText(maxLength: number): fc.Arbitrary<string> {
  return fc
    .array(fc.integer({ min: 0, max: 0x10ffff }), { maxLength })
    .map((points) => points.map((p) => String.fromCodePoint(p)).join(""));
}

/** Whether `text` is not JSON. */
function isBrokenJson(text: string): boolean {
  try {
    JSON.parse(text);
    return false;
  } catch {
    return true;
  }
}

function isPlainObject(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Whether the API must take an id list: `\d+(;\d+)*` of safe positive integers, once percent-encoded digits
 * are decoded and one trailing slash is dropped (RFC 3986 6.2.2.2: %31 is "1").
 */
function isValidIdList(raw: string): boolean {
  const segment = raw.replace(/%3([0-9])/gi, "$1").replace(/\/$/, "");
  return (
    /^\d+(;\d+)*$/.test(segment) &&
    segment.split(";").every((part) => Number.isSafeInteger(Number(part)) && Number(part) >= 1)
  );
}

/** Callback URLs that break a rule of the spec (not HTTPS, not lowercase, not a URL, whitespace). */
const badUrl = fc.oneof(
  fc.constantFrom(
    "",
    "not a url",
    "http://a.example/x",
    "HTTPS://A.EXAMPLE/X",
    "https://a.example/ x",
    "ftp://a.example",
  ),
  fc.constantFrom(
    "https://a.example/x\n",
    " https://a.example/x",
    "https://a.example/\u0000",
    "//a.example/x",
  ),
  fc.mixedCase(fc.webUrl({ validSchemes: ["https"] })).filter((u) => u !== u.toLowerCase()),
  fc.domain().map((d) => `http://${d}/hook`),
);
const hook = fc.constantFrom(...HOOKS);
const goodItem = fc.record({ hook, url: fc.webUrl({ validSchemes: ["https"] }).map((u) => u.toLowerCase()) });
const badItem = fc.oneof(
  fc.jsonValue().filter((v) => !isPlainObject(v)),
  fc.record({
    hook: fc.jsonValue().filter((h) => !(HOOKS as readonly unknown[]).includes(h)),
    url: fc.constant("https://a.example/x"),
  }),
  fc.record({ hook, url: fc.jsonValue().filter((u) => typeof u !== "string") }),
  fc.record({ hook, url: badUrl }),
  fc.record({ hook }),
  fc.record({ url: fc.constant("https://a.example/x") }),
);
const items = (list: unknown): unknown => ({ data: { webhook_subscriptions: list } });
/** Valid JSON that is not a valid create request: wrong types, bad items, a hook twice. */
export const wrongTypes: fc.Arbitrary<string> = fc
  .oneof(
    fc.jsonValue().filter((v) => !isPlainObject(v)),
    fc
      .jsonValue()
      .map((data) => ({ data }))
      .filter((b) => !isPlainObject(b.data)),
    fc
      .jsonValue()
      .filter((v) => !Array.isArray(v) || v.length === 0)
      .map(items),
    fc.tuple(fc.array(goodItem, { maxLength: 2 }), badItem, fc.nat()).map(([good, bad, at]) => {
      const list: unknown[] = [...good];
      list.splice(at % (good.length + 1), 0, bad);
      return items(list);
    }),
    fc
      .tuple(goodItem, fc.webUrl({ validSchemes: ["https"] }))
      .map(([item, url]) => items([item, { hook: item.hook, url }])),
  )
  .map((body) => JSON.stringify(body));

/** The id lists issue 10 names. */
const NAMED_BAD_IDS = [
  "1;;2",
  "abc",
  "-1",
  "99999999999999999999",
  "0",
  "1.5",
  "1e3",
  "1%3B2",
  ";",
  "1;",
  ";1",
];
/** Id lists the API must refuse with 400 (never a valid list, which a DELETE would act on). */
export const badIdSegment = fc
  .oneof(
    fc.constantFrom(
      ...NAMED_BAD_IDS,
      "0x10",
      "+1",
      "9007199254740993",
      "1;abc",
      "1,2",
      "%EF%BC%91",
      "%00",
      "1;-2",
      "null",
    ),
    fc.string({ unit: fc.constantFrom(..."0123456789;-+.,eE%xabc_~!*'()"), minLength: 1, maxLength: 24 }),
  )
  .filter((segment) => !isValidIdList(segment));

/** Bodies that are not JSON: binary junk, truncated requests, JSON with a stray brace. */
export const brokenJson: fc.Arbitrary<string> = fc
  .oneof(
    anyText(200),
    fc.nat(VALID_POST_BODY.length - 1).map((n) => VALID_POST_BODY.slice(0, n)),
    fc.json().map((j) => `${j}}`),
  )
  .filter(isBrokenJson);
