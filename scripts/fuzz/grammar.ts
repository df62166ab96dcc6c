/**
 * The grammar of the HTTP fuzzer: requests built from methods, request targets, headers, framings and bodies
 * (JSON shapes, id lists, callback URLs), valid and invalid. Keys, ids and the host are placeholders, filled in
 * per lane when sent (`serialize`), so one generated request means the same thing whichever shop runs it.
 * `mustFail` marks requests invalid by construction, which must get a 4xx whatever the state.
 */
import fc from "fast-check";
import { anyCreate, GOOD_AUTH, JSON_TYPE, PLACEHOLDERS, validCreate } from "./bodies";
import { brokenHttp } from "./brokenHttp";
import { COLLECTION, type MalformedRequest, malformedRequest } from "./malformed";
import type { Framing, FuzzRequest } from "./request";

export { PLACEHOLDERS } from "./bodies";
/** How the body is framed on the wire, and one generated request (`request.ts`). */
export type { Framing, FuzzRequest } from "./request";

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

/** A malformed request of issue 10 (the property tests' history), turned into a fuzz request. */
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
