/**
 * The grammar of the HTTP fuzzer: requests built from methods, request targets, headers, framings and bodies
 * (JSON shapes, id lists, callback URLs), valid and invalid. Keys, ids and the host are placeholders, filled in
 * per lane when sent (`serialize`), so one generated request means the same thing whichever shop runs it.
 * `mustFail` marks requests invalid by construction, which must get a 4xx whatever the state.
 */
import fc from "fast-check";
import { HOOKS } from "../../provider/hooks";
import { BODY_LIMIT_BYTES } from "./bad-parts";
import { COLLECTION, type MalformedRequest, malformedRequest } from "./malformed";

/** How the body is framed on the wire. */
export type Framing = "length" | "chunked" | "short" | "none";

/** One generated request. */
export interface FuzzRequest {
  readonly kind: string;
  readonly method: string;
  /** The request target, with placeholders (see PLACEHOLDERS). */
  readonly target: string;
  /** Header lines in order, with placeholders; Host is added by `serialize` as `host` says. */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly host: "one" | "none" | "two";
  /** Body text (UTF-8), or bytes when `bytes` is set (e.g. invalid UTF-8). */
  readonly body?: string;
  readonly bytes?: readonly number[];
  /** A valid create request padded to this many bytes, built when sent. */
  readonly padTo?: number;
  readonly framing: Framing;
  /** Invalid by construction: the answer must be a 4xx. */
  readonly mustFail: boolean;
}

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
const GOOD_AUTH = `bearer ${b64(PLACEHOLDERS.key)}`;
const JSON_TYPE = "application/json; charset=utf-8";

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
const validCreate = fc
  .tuple(fc.uniqueArray(goodItem, { minLength: 1, maxLength: 3, selector: (i) => i.hook }), fc.option(nested))
  .map(([items, extra]) => {
    const text = JSON.stringify({ data: { webhook_subscriptions: items } });
    return extra === null ? text : `${text.slice(0, -1)},"extra":${extra}}`;
  });
/** Create bodies whose URL may or may not be accepted (any answer but 5xx goes). */
const anyCreate = fc
  .uniqueArray(fc.record({ hook, url: anyUrl }), { minLength: 1, maxLength: 3, selector: (i) => i.hook })
  .map((items) => JSON.stringify({ data: { webhook_subscriptions: items } }));
/** Create bodies with an ambiguous URL: refused (422) by construction. */
const ambiguousCreate = fc
  .tuple(hook, fc.constantFrom(...AMBIGUOUS_URLS))
  .map(([h, url]) => JSON.stringify({ data: { webhook_subscriptions: [{ hook: h, url }] } }));

/** Id lists that may name existing ids: own, foreign, unknown, encoded, with a trailing slash. */
const idList = fc.oneof(
  fc.constantFrom(PLACEHOLDERS.ownIds, PLACEHOLDERS.ownId, `${PLACEHOLDERS.ownId};424242`),
  fc.constantFrom(PLACEHOLDERS.otherIds, `${PLACEHOLDERS.ownId};${PLACEHOLDERS.otherIds}`),
  fc.array(fc.integer({ min: 1, max: 60 }), { minLength: 1, maxLength: 4 }).map((ids) => ids.join(";")),
  fc.constantFrom("%31", "%31;%32", `${PLACEHOLDERS.ownId}/`),
);
const targetPrefix = fc.constantFrom(
  "",
  "",
  "",
  "",
  `http://${PLACEHOLDERS.authority}`,
  "http://other.example",
);
const collectionPath = fc.constantFrom(
  COLLECTION,
  `${COLLECTION}/`,
  "/webhook_%73ubscriptions",
  "/%77ebhook_subscriptions/",
);
const query = fc.constantFrom("", "", "", "?a=b", "?", "?x=%zz");

/** Accept headers: mostly ones that admit JSON, sometimes one that does not (406, must fail). */
const acceptHeader = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom<Array<[string, string]>>(
      [],
      [["accept", "application/json"]],
      [["accept", "*/*"]],
      [["accept", "application/*;q=0.5, text/html"]],
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Array<[string, string]>>(
      [["accept", "application/json;q=0, application/*"]],
      [["accept", "text/html"]],
    ),
  },
);
const junkHeaders = fc.oneof(
  { weight: 5, arbitrary: fc.constant<Array<[string, string]>>([]) },
  {
    weight: 2,
    arbitrary: fc.array(
      fc.tuple(
        fc.stringMatching(/^x-[a-z0-9-]{1,12}$/),
        fc.string({ unit: "grapheme-ascii", maxLength: 40 }).map((v) => v.trim()),
      ),
      { maxLength: 3 },
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Array<[string, string]>>(
      [["user-agent", "CustomApiCall/2"]],
      [["expect", "100-continue"]],
      [["connection", "close"]],
      [["content-encoding", "identity"]],
      [["accept-encoding", "gzip"]],
    ),
  },
);
const framing = fc.constantFrom<Framing>("length", "length", "length", "length", "chunked");

/** Reads and writes of the API that may succeed: their effect is checked against the model. */
const apiCall: fc.Arbitrary<FuzzRequest> = fc
  .tuple(
    fc.oneof(
      fc.tuple(
        fc.constantFrom("GET", "HEAD"),
        fc.oneof(
          collectionPath,
          idList.map((ids) => `${COLLECTION}/${ids}`),
          fc.constant("/"),
        ),
      ),
      fc.tuple(
        fc.constant("DELETE"),
        idList.map((ids) => `${COLLECTION}/${ids}`),
      ),
      fc.tuple(fc.constant("POST"), collectionPath),
    ),
    targetPrefix,
    query,
    acceptHeader,
    junkHeaders,
    fc.oneof(validCreate, anyCreate),
    framing,
  )
  .map(([[method, path], prefix, q, accept, junk, body, frame]) => ({
    kind: `${method} ${/^\/(webhook_subscriptions|%77ebhook_subscriptions|webhook_%73ubscriptions)?\/?$/.test(path) ? "list" : "ids"}`,
    method,
    target: `${prefix}${path}${q}`,
    headers: [
      ["authorization", GOOD_AUTH],
      ...accept,
      ...junk,
      ...(method === "POST" ? [["content-type", JSON_TYPE] as [string, string]] : []),
    ],
    host: "one",
    ...(method === "POST" ? { body } : {}),
    framing: method === "POST" ? frame : "length",
    mustFail:
      q === "?x=%zz" || accept.some(([, v]) => v === "text/html" || v.startsWith("application/json;q=0")),
  }));

/** Requests broken at the HTTP level: Host, Expect, encodings, framing, bytes, targets, methods. */
const brokenHttp: fc.Arbitrary<FuzzRequest> = fc
  .tuple(
    fc.constantFrom(
      "no Host",
      "two Hosts",
      "Expect: foo",
      "gzip body",
      "not UTF-8",
      "stalled body",
      "bad target",
      "CONNECT",
      "ambiguous URL",
    ),
    validCreate,
    fc.nat(200),
    fc.constantFrom(
      "/webhook_subscriptions/%zz",
      "*",
      `${COLLECTION}#x`,
      `ftp://h${COLLECTION}`,
      `${COLLECTION}/1 2`,
    ),
    ambiguousCreate,
  )
  .map(([kind, body, at, badTarget, ambiguous]): FuzzRequest => {
    const post = {
      kind,
      method: "POST",
      target: COLLECTION,
      headers: [
        ["authorization", GOOD_AUTH],
        ["content-type", JSON_TYPE],
      ] as Array<[string, string]>,
      host: "one" as const,
      body,
      framing: "length" as Framing,
      mustFail: true,
    };
    switch (kind) {
      case "no Host":
        return { ...post, host: "none" };
      case "two Hosts":
        return { ...post, host: "two" };
      case "Expect: foo":
        return { ...post, headers: [...post.headers, ["expect", "foo"]] };
      case "gzip body":
        return { ...post, headers: [...post.headers, ["content-encoding", "gzip"]] };
      case "not UTF-8": {
        const bytes = [...Buffer.from(body)];
        bytes.splice(Math.min(at, bytes.length - 2), 0, 0xc3, 0x28);
        return { ...post, bytes };
      }
      case "stalled body":
        return { ...post, framing: "short" };
      case "bad target":
        return { ...post, method: "GET", target: badTarget, framing: "none" };
      case "CONNECT":
        return { ...post, method: "CONNECT", target: "127.0.0.1:9", framing: "none" };
      default:
        return { ...post, body: ambiguous };
    }
  });

/** A malformed request of issue 10 (test/property history), turned into a fuzz request. */
function fromMalformed(request: MalformedRequest): FuzzRequest {
  const headers: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(request.headers)) {
    for (const v of Array.isArray(value) ? value : [value]) headers.push([name, v]);
  }
  return {
    kind: request.kind,
    method: request.method,
    target: request.path,
    headers,
    host: "one",
    ...(request.body !== undefined ? { body: request.body } : {}),
    ...(request.hugeBody !== undefined ? { padTo: request.hugeBody } : {}),
    framing: request.body !== undefined || request.hugeBody !== undefined ? "length" : "none",
    mustFail: true,
  };
}

const malformed = malformedRequest({
  key: PLACEHOLDERS.key,
  readOnlyKey: PLACEHOLDERS.readOnlyKey,
  ownIds: PLACEHOLDERS.ownIds.split(";").map(Number),
  otherIds: [Number(PLACEHOLDERS.otherIds)],
}).map(fromMalformed);

/** Every kind of request, weighted: about half may succeed, half are invalid by construction. */
export const fuzzRequest: fc.Arbitrary<FuzzRequest> = fc.oneof(
  { weight: 10, arbitrary: apiCall },
  { weight: 3, arbitrary: brokenHttp },
  { weight: 7, arbitrary: malformed },
);

/** The largest body a request may carry (for the huge-body case), in bytes. */
export const LARGEST_BODY_BYTES = BODY_LIMIT_BYTES + 64 * 1024;
