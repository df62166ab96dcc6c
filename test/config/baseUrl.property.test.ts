/**
 * Property test of the API base URL rule (issue 10, transport): over 10,000 generated URLs (a fixed seed,
 * printed with a failure), whatever `validateBaseUrl` accepts is HTTPS, or plain HTTP to a loopback host; it
 * never carries credentials, a query or a fragment; whatever it refuses is a ShippingConfigError naming the
 * setting; and, the converse, every URL that keeps those rules is accepted, at its own origin.
 */
import { isIPv4 } from "node:net";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { validateBaseUrl } from "../../provider/client/shippingClient";
import { ShippingConfigError } from "../../provider/errors";

/** Loopback, decided independently of the provider: 127.0.0.0/8, localhost and ::1 after URL parsing. */
function isLoopback(hostname: string): boolean {
  return (
    hostname === "localhost" || hostname === "[::1]" || (isIPv4(hostname) && hostname.startsWith("127."))
  );
}

const host = fc.oneof(
  fc.domain(),
  fc.ipV4(),
  fc.constantFrom(
    "127.0.0.1",
    "127.1",
    "2130706433",
    "0x7f.0.0.1",
    "localhost",
    "LOCALHOST",
    "localhost.",
    "[::1]",
    "[0:0:0:0:0:0:0:1]",
    "[::ffff:127.0.0.1]",
    "127.0.0.1.nip.io",
    "localhost.example.com",
    "0.0.0.0",
    "[::]",
  ),
);
/** The same generated URLs in every run: a failure is repeated by running again. */
const RUNS = { numRuns: 10_000, seed: 1_011 } as const;

const baseUrl = fc
  .tuple(
    fc.constantFrom("http", "https", "HTTP", "Https", "ftp", "ws"),
    fc.constantFrom("", "", "", "user@", "user:pass@", "127.0.0.1@", "localhost:1@"),
    host,
    fc.constantFrom("", ":4010", ":443", ":0"),
    fc.constantFrom("", "/", "/api", "/api/", "?x=1", "#f", "/a?b#c", "//"),
  )
  .map(([scheme, userinfo, h, port, tail]) => `${scheme}://${userinfo}${h}${port}${tail}`);

const anyBaseUrl = fc.oneof(baseUrl, fc.webUrl({ withQueryParameters: true }), fc.string());
/** Base URLs of the rule's own form (a scheme, a host, a port, a path), most of which keep it. */
const wellFormed = fc
  .tuple(
    fc.constantFrom("https", "HTTPS", "http"),
    host,
    fc.constantFrom("", ":4010", ":443", ":65535"),
    fc.oneof(fc.constantFrom("", "/", "/api/", "//"), fc.webPath()),
  )
  .map(([scheme, h, port, path]) => `${scheme}://${h}${port}${path}`);

/**
 * What the rule must accept, decided independently of the provider: a URL that parses, HTTPS or HTTP to a
 * loopback host, with no credentials, query or fragment. Its parsed form, or undefined.
 */
function keepsTheRule(url: string): URL | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const scheme = parsed.protocol === "https:" || (parsed.protocol === "http:" && isLoopback(parsed.hostname));
  const extras = parsed.username + parsed.password + parsed.search + parsed.hash;
  return scheme && extras === "" ? parsed : undefined;
}

describe("validateBaseUrl, 10,000 generated base URLs", () => {
  it("accepts only HTTPS or loopback HTTP, without credentials, query or fragment; refuses with a named setting", () => {
    fc.assert(
      fc.property(anyBaseUrl, (url) => {
        let accepted: string;
        try {
          accepted = validateBaseUrl(url);
        } catch (error) {
          expect(error).toBeInstanceOf(ShippingConfigError);
          expect((error as ShippingConfigError).message).toMatch(/^shipping:baseUrl: \S/);
          return;
        }
        const parsed = new URL(accepted);
        expect(["https:", "http:"]).toContain(parsed.protocol);
        if (parsed.protocol === "http:") expect(isLoopback(parsed.hostname), url).toBe(true);
        expect(parsed.username + parsed.password + parsed.search + parsed.hash).toBe("");
        expect(accepted.endsWith("/")).toBe(false);
      }),
      RUNS,
    );
  }, 120_000);

  it("accepts every URL that keeps the rule, as a URL of the same origin", () => {
    let kept = 0;
    fc.assert(
      fc.property(fc.oneof(anyBaseUrl, wellFormed), (url) => {
        const parsed = keepsTheRule(url);
        if (parsed === undefined) return;
        kept++;
        expect(new URL(validateBaseUrl(url)).origin, url).toBe(parsed.origin);
      }),
      RUNS,
    );
    // Not vacuous: a good share of the generated URLs keep the rule.
    expect(kept).toBeGreaterThan(RUNS.numRuns / 5);
  }, 120_000);
});
