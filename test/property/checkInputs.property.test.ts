/**
 * Property tests of input validation (issue 10, bad input): 10,000 generated inputs per property. The API's
 * own URL rule is the simulator's (`urlProblem`), so "accepted by preview" is checked against "accepted by
 * the service" instead of against a copy of the same code.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkInputs, INPUT_PROPERTIES } from "../../provider/lifecycle";
import { urlProblem as apiUrlProblem } from "../../simulator/validation";
import { freshProvider } from "../support/provider";
import { resourceInputs, urlLike } from "./support/arbitraries";

const RUNS = { numRuns: 10_000 } as const;
/** 10,000 runs take seconds; this leaves room for a machine busy with engine tests. */
const TIMEOUT_MS = 120_000;
const HOOK = "order_status_change";

/** Characters of RFC 3986 (unreserved, reserved, "%"), without the fragment's "#". */
const URI_TEXT = /^[a-z0-9\-._~:/?[\]@!$&'()*+,;=%]*$/;

/** The callback URL rules of the spec and RFC 3986, written out independently of the provider. */
function ruleBroken(url: string): string | undefined {
  if (!url.startsWith("https://")) return "does not start with https://";
  if (!URI_TEXT.test(url)) return "has a character outside RFC 3986 (or a fragment, or uppercase)";
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "does not parse";
  }
  if (parsed.protocol !== "https:") return "not HTTPS";
  if (url !== url.toLowerCase()) return "not lowercase";
  if (parsed.username !== "" || parsed.password !== "") return "has credentials";
  // The address a client calls is the text written, up to an omitted default port and an empty path.
  const [, authority = "", rest = ""] = /^https:\/\/([^/?]*)(.*)$/.exec(url) ?? [];
  const written = `https://${authority.replace(/:443$/, "")}${rest.startsWith("/") ? rest : `/${rest}`}`;
  if (parsed.href !== written) return `is called as ${parsed.href}`;
  if (apiUrlProblem(url) !== undefined) return `the API refuses it: ${apiUrlProblem(url)}`;
  return undefined;
}

const urlFailure = (url: string) =>
  checkInputs({ hook: HOOK, url }).failures.find((f) => f.property === "url");

describe("checkInputs, 10,000 generated inputs per property", () => {
  it(
    "never throws; every failure names a known property, once, with a non-empty reason",
    () => {
      fc.assert(
        fc.property(resourceInputs, (news) => {
          const { inputs, failures } = checkInputs(news);
          for (const failure of failures) {
            expect(INPUT_PROPERTIES).toContain(failure.property);
            expect(typeof failure.reason).toBe("string");
            expect(failure.reason.trim()).not.toBe("");
          }
          expect(new Set(failures.map((f) => f.property)).size).toBe(failures.length);
          for (const key of Object.keys(inputs)) expect(INPUT_PROPERTIES).toContain(key);
        }),
        RUNS,
      );
    },
    TIMEOUT_MS,
  );

  it(
    "every accepted URL is HTTPS, lowercase, parses, has no credentials, and the API takes it",
    () => {
      fc.assert(
        fc.property(urlLike, (url) => {
          if (urlFailure(url) === undefined) expect(ruleBroken(url), JSON.stringify(url)).toBeUndefined();
        }),
        RUNS,
      );
    },
    TIMEOUT_MS,
  );

  it(
    "preview refuses every URL the API refuses, before any API call",
    () => {
      fc.assert(
        fc.property(urlLike, (url) => {
          if (apiUrlProblem(url) !== undefined) expect(urlFailure(url), JSON.stringify(url)).toBeDefined();
        }),
        RUNS,
      );
    },
    TIMEOUT_MS,
  );

  it(
    "every refused URL breaks a rule, and the reason says which",
    () => {
      fc.assert(
        fc.property(urlLike, (url) => {
          const failure = urlFailure(url);
          if (failure === undefined) return;
          expect(ruleBroken(url), JSON.stringify(url)).toBeDefined();
          expect(failure.reason).toMatch(
            /absolute URL|HTTPS|lowercase|user name or password|whitespace or control|unambiguous URL: ./,
          );
        }),
        RUNS,
      );
    },
    TIMEOUT_MS,
  );

  it.each([
    "https://a.example/x ",
    " https://a.example/x",
    "https://a.exa\nmple/x",
    "https://a.example/\u00a0",
  ])(
    "refuses %j, which URL parsing would silently clean but the API refuses (found by the property above)",
    (url) => {
      expect(urlFailure(url)?.reason).toMatch(/must not contain whitespace or control characters/);
      expect(apiUrlProblem(url)).toBeDefined();
    },
  );

  it(
    "the fix a lowercase refusal suggests is accepted",
    () => {
      fc.assert(
        fc.property(
          fc.mixedCase(
            fc.webUrl({ validSchemes: ["https"], withQueryParameters: true, withFragments: true }),
          ),
          (url) => {
            const suggested = /must be lowercase .*; use "(.*)"$/.exec(urlFailure(url)?.reason ?? "")?.[1];
            if (suggested !== undefined) expect(urlFailure(suggested)).toBeUndefined();
          },
        ),
        RUNS,
      );
    },
    TIMEOUT_MS,
  );

  it(
    "the provider's check() never rejects, whatever the inputs, and reports failures the same way",
    async () => {
      const provider = await freshProvider({
        "shipping:apiKey": "property-test-key",
        "shipping:baseUrl": "http://127.0.0.1:9",
        "shipping:shops": JSON.stringify({ acme: { apiKey: "property-test-acme" } }),
      });
      await fc.assert(
        fc.asyncProperty(resourceInputs, async (news) => {
          const { failures } = await provider.check({}, news);
          for (const failure of failures) {
            expect(INPUT_PROPERTIES).toContain(failure.property);
            expect(failure.reason.trim()).not.toBe("");
          }
        }),
        RUNS,
      );
    },
    TIMEOUT_MS,
  );
});
