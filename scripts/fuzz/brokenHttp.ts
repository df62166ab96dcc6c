/**
 * Requests broken at the HTTP level: Host (missing, twice, an invalid value), Expect, content and transfer
 * codings, framing, bytes, targets, methods, Authorization twice. Each is invalid by construction.
 */
import fc from "fast-check";
import { ambiguousCreate, GOOD_AUTH, JSON_TYPE, validCreate } from "./bodies";
import { COLLECTION } from "./malformed";
import type { Framing, FuzzRequest } from "./request";

/** Requests broken at the HTTP level: Host, Expect, encodings, framing, bytes, targets, methods. */
export const brokenHttp: fc.Arbitrary<FuzzRequest> = fc
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
      "invalid Host",
      "two Authorizations",
      "transfer coding",
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
      case "invalid Host":
        return { ...post, host: "invalid" };
      case "two Authorizations":
        return { ...post, headers: [...post.headers, ["authorization", GOOD_AUTH]] };
      case "transfer coding":
        return { ...post, framing: "chunked", transferEncoding: "gzip, chunked", expectStatus: 501 };
      default:
        return { ...post, body: ambiguous };
    }
  });
