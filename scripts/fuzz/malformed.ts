import fc from "fast-check";
import { BODY_LIMIT_BYTES, badIdSegment, brokenJson, VALID_POST_BODY, wrongTypes } from "./badParts";

/** One request to throw at the simulator. */
export interface MalformedRequest {
  /** What is wrong with it, for failure messages. */
  readonly kind: string;
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string | string[]>;
  readonly body?: string;
  /** A body of this many bytes, built when sent (so 10,000 samples do not hold gigabytes of padding). */
  readonly hugeBody?: number;
}

/** Keys and ids the generated requests use; the ids are seeded before the flood. */
interface Fixture {
  readonly key: string;
  readonly readOnlyKey: string;
  /** Ids of the shop of `key`. */
  readonly ownIds: readonly number[];
  /** Ids of another shop. */
  readonly otherIds: readonly number[];
}

/** A collection path. */
export const COLLECTION = "/webhook_subscriptions";
const b64 = (text: string): string => Buffer.from(text, "utf8").toString("base64");
const JSON_TYPE = "application/json; charset=utf-8";

/** The ways an Authorization header can be wrong. */
function badAuthorizations(f: Fixture): string[] {
  return [
    "",
    "bearer",
    `bearer ${f.key}`,
    `token ${b64(f.key)}`,
    `bearer ${b64("not-a-key-of-any-shop")}`,
    `bearer ${b64(f.key)} extra`,
    `bearer${b64(f.key)}`,
    `bearer ${b64(f.key)}!`,
    "bearer !!!",
    `bearer ${b64(f.key).toLowerCase()}`,
  ];
}

/** Extra headers a client might send: junk names and values, odd user agents, an oversized header. */
const oddHeaders = fc.oneof(
  { weight: 6, arbitrary: fc.constant({}) },
  {
    weight: 3,
    arbitrary: fc.dictionary(
      fc.stringMatching(/^x-[a-z0-9-]{1,20}$/),
      fc.string({ unit: "grapheme-ascii", maxLength: 300 }).map((v) => v.trim()),
      { maxKeys: 4 },
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      { "user-agent": "" },
      { "user-agent": "x".repeat(4_000) },
      { "accept-encoding": "gzip, br" },
      { cookie: "a=b; c" },
      { "accept-language": "*;q=2" },
      { "x-forwarded-for": "::1, 300.1.1.1" },
    ),
  },
);

/** Every kind of malformed request, weighted; writes (POST, DELETE) are always invalid by construction. */
export function malformedRequest(f: Fixture): fc.Arbitrary<MalformedRequest> {
  const good = `bearer ${b64(f.key)}`;
  const authOk = { authorization: good, accept: "application/json" };
  const post = (
    kind: string,
    body: string,
    headers: Record<string, string | string[]> = {},
  ): MalformedRequest => ({
    kind,
    method: "POST",
    path: COLLECTION,
    headers: { ...authOk, "content-type": JSON_TYPE, ...headers },
    body,
  });
  const ownIds = f.ownIds.join(";");
  const validWrite = fc.constantFrom<[string, string, string | undefined]>(
    ["POST", COLLECTION, VALID_POST_BODY],
    ["DELETE", `${COLLECTION}/${ownIds}`, undefined],
  );
  const kinds = fc.oneof(
    {
      weight: 3,
      arbitrary: brokenJson.map((body) => post("broken JSON", body)),
    },
    { weight: 3, arbitrary: wrongTypes.map((body) => post("wrong types", body)) },
    {
      weight: 1,
      arbitrary: fc.integer({ min: 1, max: 64 * 1024 }).map((extra) => ({
        ...post("huge body", ""),
        hugeBody: BODY_LIMIT_BYTES + extra,
      })),
    },
    {
      weight: 3,
      arbitrary: fc
        .tuple(fc.constantFrom("GET", "DELETE"), badIdSegment)
        .map(([method, ids]) => ({ kind: "bad ids", method, path: `${COLLECTION}/${ids}`, headers: authOk })),
    },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom(
          // (own ids plus an unknown one is no longer invalid: under partialIds "subset" it deletes the own ones)
          "424242",
          f.otherIds.join(";"),
          `${f.ownIds[0] ?? 1};${f.otherIds[0] ?? 1}`,
          `${f.otherIds[0] ?? 1};424242`,
        )
        .map((ids) => ({
          kind: "foreign or unknown ids",
          method: "DELETE",
          path: `${COLLECTION}/${ids}`,
          headers: authOk,
        })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          validWrite,
          fc.constantFrom<(string | string[] | undefined)[]>(
            ...badAuthorizations(f),
            `bearer ${b64(f.readOnlyKey)}`,
            undefined,
            [`bearer ${b64("not-a-key-of-any-shop")}`, good],
          ),
        )
        .map(([[method, path, body], authorization]) => ({
          kind: "bad credentials",
          method,
          path,
          headers: {
            accept: "application/json",
            "content-type": JSON_TYPE,
            ...(authorization !== undefined ? { authorization } : {}),
          },
          ...(body !== undefined ? { body } : {}),
        })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          validWrite,
          fc.constantFrom(
            "text/html",
            "application/xml",
            "application/json;q=0",
            "image/*",
            "text/*, application/xml",
          ),
        )
        .map(([[method, path, body], accept]) => ({
          kind: "bad Accept",
          method,
          path,
          headers: { ...authOk, accept, "content-type": JSON_TYPE },
          ...(body !== undefined ? { body } : {}),
        })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom<string | undefined>(
          undefined,
          "text/plain",
          "application/x-www-form-urlencoded",
          "application/json; charset=latin1",
          "application/jsonx",
          "multipart/form-data; boundary=x",
          "application/json; charset=utf-16",
          "json",
        )
        .map((type) => ({
          kind: "bad Content-Type",
          method: "POST",
          path: COLLECTION,
          headers: { ...authOk, ...(type !== undefined ? { "content-type": type } : {}) },
          body: VALID_POST_BODY,
        })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom("PUT", "PATCH", "OPTIONS", "TRACE", "PROPFIND", "POST", "DELETE"),
          fc.constantFrom("/", COLLECTION, `${COLLECTION}/`, `${COLLECTION}/${ownIds}`),
        )
        .filter(([method, path]) => {
          if (method === "POST") return path !== COLLECTION && path !== `${COLLECTION}/`;
          if (method === "DELETE") return !path.startsWith(`${COLLECTION}/${ownIds}`);
          return true;
        })
        .map(([method, path]) => ({
          kind: "wrong method",
          method,
          path,
          headers: { ...authOk, "content-type": JSON_TYPE },
          ...(method === "OPTIONS" || method === "TRACE" ? {} : { body: VALID_POST_BODY }),
        })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom("POST", "DELETE"),
          fc.constantFrom(
            `${COLLECTION}/1/2`,
            "/WEBHOOK_SUBSCRIPTIONS",
            `/${COLLECTION}`,
            "/api/webhook_subscriptions",
            `${COLLECTION}%2F${f.ownIds[0] ?? 1}`,
            "/%2e%2e/webhook_subscriptions",
            `${COLLECTION}/${f.ownIds[0] ?? 1}/x`,
          ),
        )
        .map(([method, path]) => ({
          kind: "unknown path",
          method,
          path,
          headers: { ...authOk, "content-type": JSON_TYPE },
          body: VALID_POST_BODY,
        })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom("get", "post", "Delete", "FOO", "BREW"),
          fc.constantFrom(COLLECTION, `${COLLECTION}/${ownIds}`),
        )
        .map(([method, path]) => ({ kind: "unparseable method", method, path, headers: authOk })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(validWrite, fc.integer({ min: 17 * 1024, max: 24 * 1024 }))
        .map(([[method, path, body], size]) => ({
          kind: "oversized header",
          method,
          path,
          headers: { ...authOk, "content-type": JSON_TYPE, "x-padding": "p".repeat(size) },
          ...(body !== undefined ? { body } : {}),
        })),
    },
  );
  return fc.tuple(kinds, oddHeaders).map(([request, extra]) => ({
    ...request,
    headers: { ...extra, ...request.headers },
  }));
}
