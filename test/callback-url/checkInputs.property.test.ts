/**
 * Property tests of input validation (issue 10, bad input): 10,000 generated inputs per property, the same ones
 * in every run (a fixed seed: a failure prints it, with the path to the shrunk counterexample). The oracle
 * is the spec's rule and RFC 3986, written here independently of `contract/callbackUrl.ts` (which the provider's
 * preview and the simulator's 422 share): each property compares one of them with it, never the two with each
 * other.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkInputs, INPUT_PROPERTIES } from "../../provider/inputs/lifecycle";
import { urlProblem as apiUrlProblem } from "../../simulator/validation";
import { freshProvider } from "../support/provider";
import { resourceInputs, urlLike } from "./arbitraries";

/** The seed of every property here: a run that fails is repeated by running again. */
const SEED = 20_261_127;
const RUNS = { numRuns: 10_000, seed: SEED } as const;
/** 10,000 runs take seconds; this leaves room for a machine busy with engine tests. */
const TIMEOUT_MS = 120_000;
const HOOK = "order_status_change";

/** Characters of RFC 3986 (unreserved, reserved, "%"), without the fragment's "#". */
const URI_TEXT = /^[a-z0-9\-._~:/?[\]@!$&'()*+,;=%]*$/;
/** RFC 3986 2.3: unreserved characters, which a percent-encoding must not stand for (6.2.2.2 decodes them). */
const UNRESERVED = /^[a-zA-Z0-9\-._~]$/;
/** A DNS name (RFC 1123 labels, "_" tolerated) or a bracketed IP literal. */
const HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*\.?)$/;
/** RFC 1035 2.3.4: a DNS label has at most 63 characters. */
const LONGEST_LABEL = 63;

/** The callback URL rules of the spec and RFC 3986, written out independently of the contract's rule. */
function ruleBroken(url: string): string | undefined {
  if (!url.startsWith("https://")) return "does not start with https://";
  if (!URI_TEXT.test(url)) return "has a character outside RFC 3986 (or a fragment, or uppercase)";
  const encodings = url.match(/%.{0,2}/g) ?? [];
  if (encodings.some((e) => !/^%[0-9a-f]{2}$/.test(e)))
    return "has a % that is no lowercase percent-encoding";
  const plain = encodings.map((e) => String.fromCharCode(Number.parseInt(e.slice(1), 16)));
  if (plain.some((c) => UNRESERVED.test(c))) return "percent-encodes an unreserved character";
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "does not parse";
  }
  if (parsed.username !== "" || parsed.password !== "") return "has credentials";
  const [, authority = "", rest = ""] = /^https:\/\/([^/?]*)(.*)$/.exec(url) ?? [];
  const [, host = "", port] = /^(\[[^\]]*\]|[^:]*)(?::(.*))?$/.exec(authority) ?? [];
  if (!HOST.test(host)) return "the host is no DNS name or IP literal";
  if (!host.startsWith("[") && host.split(".").some((label) => label.length > LONGEST_LABEL))
    return `a label of the host is longer than ${LONGEST_LABEL} characters`;
  if (port !== undefined && !/^[1-9][0-9]{0,4}$/.test(port))
    return "the port is no number without a leading zero";
  if (port !== undefined && Number(port) > 65_535) return "the port is above 65535";
  // The address a client calls is the text written, up to an omitted default port and an empty path.
  const written = `https://${authority.replace(/:443$/, "")}${rest.startsWith("/") ? rest : `/${rest}`}`;
  if (parsed.href !== written) return `is called as ${parsed.href}`;
  // An HTTP client sends the path and the query as the request target (an empty query's "?" is not sent).
  const target = `${parsed.pathname}${parsed.search}`;
  if (target !== (rest.startsWith("/") ? rest : `/${rest}`)) return `requests ${target}`;
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
    "preview accepts a URL only if it keeps every rule of the spec and RFC 3986",
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
    "the API (the simulator) accepts a URL only if it keeps every rule, and refuses every URL that breaks one",
    () => {
      fc.assert(
        fc.property(urlLike, (url) => {
          expect(apiUrlProblem(url) === undefined, JSON.stringify(url)).toBe(ruleBroken(url) === undefined);
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
      let suggestions = 0;
      fc.assert(
        fc.property(
          fc.mixedCase(
            fc.webUrl({ validSchemes: ["https"], withQueryParameters: true, withFragments: true }),
          ),
          (url) => {
            const suggested = /must be lowercase .*; use "(.*)"$/.exec(urlFailure(url)?.reason ?? "")?.[1];
            if (suggested === undefined) return;
            suggestions++;
            expect(urlFailure(suggested)).toBeUndefined();
          },
        ),
        RUNS,
      );
      // Not vacuous: most generated URLs have an uppercase letter, and their refusals suggest a fix.
      expect(suggestions).toBeGreaterThan(RUNS.numRuns / 2);
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
