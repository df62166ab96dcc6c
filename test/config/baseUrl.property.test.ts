/**
 * Property test of the API base URL rule (issue 10, transport): over 10,000 generated URLs, whatever
 * `validateBaseUrl` accepts is HTTPS, or plain HTTP to a loopback host; it never carries credentials, a
 * query or a fragment; and whatever it refuses is a ShippingConfigError naming the setting.
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
const baseUrl = fc
  .tuple(
    fc.constantFrom("http", "https", "HTTP", "Https", "ftp", "ws"),
    fc.constantFrom("", "", "", "user@", "user:pass@", "127.0.0.1@", "localhost:1@"),
    host,
    fc.constantFrom("", ":4010", ":443", ":0"),
    fc.constantFrom("", "/", "/api", "/api/", "?x=1", "#f", "/a?b#c", "//"),
  )
  .map(([scheme, userinfo, h, port, tail]) => `${scheme}://${userinfo}${h}${port}${tail}`);

describe("validateBaseUrl, 10,000 generated base URLs", () => {
  it("accepts only HTTPS or loopback HTTP, without credentials, query or fragment; refuses with a named setting", () => {
    fc.assert(
      fc.property(fc.oneof(baseUrl, fc.webUrl({ withQueryParameters: true }), fc.string()), (url) => {
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
      { numRuns: 10_000 },
    );
  }, 120_000);
});
