import { describe, expect, it } from "vitest";
import {
  CONFIG_PROBLEM_INPUT,
  checkInputs,
  SECRET_URL_PROBLEM_INPUT,
  UNKNOWN_VALUE,
} from "../../provider/inputs/lifecycle";
import { AMBIGUOUS_URLS } from "../support/ambiguousUrls";

const hook = "order_status_change";

describe("checkInputs: callback URL rules", () => {
  it.each([
    ["https://example.com/hooks/orders"],
    ["https://example.com"],
    ["https://example.com:8443/a?token=abc123"],
    ["https://xn--bcher-kva.example/hook"],
    ["https://127.0.0.1/hook"],
  ])("accepts %s", (url) => {
    const { inputs, failures } = checkInputs({ hook, url });
    expect(failures).toEqual([]);
    expect(inputs).toEqual({ hook, url });
  });

  it.each([
    ["http://example.com/hook", /must use HTTPS; use "https:\/\/example.com\/hook"/],
    ["ftp://example.com/hook", /must use HTTPS/],
    ["https://Example.com/Hook", /must be lowercase.*use "https:\/\/example.com\/hook"/],
    ["https://example.com/hook?Token=ABC", /must be lowercase.*"https:\/\/example.com\/hook\?token=abc"/],
    ["example.com/hook", /not an absolute URL/],
    ["", /not an absolute URL/],
    ["https://", /not an absolute URL/],
    ["https://user:pw@example.com/hook", /must not carry a user name or password/],
  ])("refuses %s naming the rule and the fix", (url, reason) => {
    const { failures } = checkInputs({ hook, url });
    expect(failures).toHaveLength(1);
    expect(failures[0]?.property).toBe("url");
    expect(failures[0]?.reason).toMatch(reason);
  });

  /** A DNS label of `n` characters (RFC 1035 2.3.4: at most 63). */
  const label = (n: number) => "a".repeat(n);

  // Each limit of contract/callbackUrl.ts, from both sides: the last value it accepts, the first it refuses.
  it.each([
    ["the largest port", "https://example.com:65535/hook"],
    ["the smallest port", "https://example.com:1/hook"],
    ["the HTTPS port written out (the address called is the same)", "https://example.com:443/hook"],
    ["a host label of 63 characters, first", `https://${label(63)}.example/hook`],
    ["a host label of 63 characters, last", `https://hooks.${label(63)}/hook`],
    ["a percent-encoding of two hex digits (not of an unreserved character)", "https://a.example/%2f"],
  ])("accepts %s: %s", (_limit, url) => {
    expect(checkInputs({ hook, url }).failures).toEqual([]);
  });

  it.each([
    ["a port above 65535", "https://example.com:65536/hook", /the port "65536" is not a number in 1-65535$/],
    ["port 0", "https://example.com:0/hook", /the port "0" is not a number in 1-65535$/],
    [
      "a host label of 64 characters, first",
      `https://${label(64)}.example/hook`,
      /is not a valid host name$/,
    ],
    ["a host label of 64 characters, last", `https://hooks.${label(64)}/hook`, /is not a valid host name$/],
    [
      "%, one hex digit, a letter that is none",
      "https://a.example/%4x",
      /"%" at index 18 does not start a percent/,
    ],
    ["%, one hex digit, the end", "https://a.example/%4", /"%" at index 18 does not start a percent/],
    [
      "%, one hex digit, a slash (in the query)",
      "https://a.example/x?q=%a/",
      /"%" at index 22 does not start/,
    ],
  ])("refuses %s: %s, with no fix to suggest", (_limit, url, reason) => {
    const { failures } = checkInputs({ hook, url });
    expect(failures.map((f) => f.property)).toEqual(["url"]);
    expect(failures[0]?.reason).toMatch(reason);
    expect(failures[0]?.reason).not.toMatch(/; use "/);
  });

  it.each(AMBIGUOUS_URLS)(
    "refuses %j, which parsers read differently (%s), suggesting %s",
    (url, reason, fix) => {
      const { failures } = checkInputs({ hook, url });
      expect(failures.map((f) => f.property)).toEqual(["url"]);
      expect(failures[0]?.reason).toMatch(reason);
      if (fix === undefined) expect(failures[0]?.reason).not.toMatch(/; use "/);
      else {
        expect(failures[0]?.reason).toContain(`use "${fix}"`);
        expect(checkInputs({ hook, url: fix }).failures).toEqual([]);
      }
    },
  );
});

describe("checkInputs: hook, shop and presence", () => {
  it.each([
    [{ url: "https://a.example/x" }, "hook", /is required; use one of shipment_status_change/],
    [
      { hook: "order_created", url: "https://a.example/x" },
      "hook",
      /"order_created" is not a hook; use one of/,
    ],
    [{ hook: 7, url: "https://a.example/x" }, "hook", /must be a string, not number/],
    [{ hook }, "url", /is required/],
    [{ hook, url: ["https://a.example"] }, "url", /must be a string, not an array/],
    [{ hook, url: "https://a.example/x", shop: "Acme Shop" }, "shop", /not a shop name/],
  ])("refuses %j on %s", (news, property, reason) => {
    const { failures } = checkInputs(news);
    expect(failures.map((f) => f.property)).toEqual([property]);
    expect(failures[0]?.reason).toMatch(reason);
  });

  it("lets values still unknown at preview pass", () => {
    const news = { hook: UNKNOWN_VALUE, url: UNKNOWN_VALUE, shop: UNKNOWN_VALUE };
    expect(checkInputs(news)).toEqual({ inputs: news, failures: [] });
  });

  it("reports every bad property at once", () => {
    const { failures } = checkInputs({ hook: "nope", url: "HTTP://X" });
    expect(failures.map((f) => f.property).sort()).toEqual(["hook", "url"]);
  });

  it("drops properties it does not know (such as a stray apiKey) from the checked inputs", () => {
    const { inputs } = checkInputs({ hook, url: "https://a.example/x", apiKey: "should-not-be-stored" });
    expect(inputs).toEqual({ hook, url: "https://a.example/x" });
  });
});

describe("checkInputs: a secret URL that breaks the rule (the program's message, never the URL)", () => {
  const bad = "https://Hooks.example.com/orders?token=T0KEN";
  const message = 'WebhookSubscription "orders": url: the URL (a secret, not shown) must be lowercase';
  it.each([
    [
      "the program's message: fails the resource with it",
      { [SECRET_URL_PROBLEM_INPUT]: { refusal: message } },
      message,
    ],
    ["none given: the url rule reports it on url", {}, undefined],
    ["an empty message: not a refusal", { [SECRET_URL_PROBLEM_INPUT]: { refusal: "" } }, undefined],
    ["not a string: not a refusal", { [SECRET_URL_PROBLEM_INPUT]: { refusal: true } }, undefined],
    ["a bare string: not a refusal", { [SECRET_URL_PROBLEM_INPUT]: message }, undefined],
    ["not known yet (a preview): not a refusal", { [SECRET_URL_PROBLEM_INPUT]: UNKNOWN_VALUE }, undefined],
    ["null: not a refusal", { [SECRET_URL_PROBLEM_INPUT]: null }, undefined],
  ])("%s", (_case, hidden, thrown) => {
    const news = { hook, url: bad, ...hidden };
    if (thrown === undefined) {
      expect(checkInputs(news).failures.map((f) => f.property)).toEqual(["url"]);
      return;
    }
    let error: unknown;
    try {
      checkInputs(news);
    } catch (e) {
      error = e;
    }
    expect(String(error)).toContain(thrown);
    expect(String(error)).not.toContain("T0KEN");
  });
});

describe("checkInputs: a key under shipping: that is no setting (the program's verdict on the config's keys)", () => {
  const message = "shipping:shopID: is not a setting of pulumi-shipping-webhooks, so nothing reads it";
  it.each([
    ["the program's message: fails the resource, before any input is judged", { refusal: message }, message],
    ["none given", undefined, undefined],
    ["an empty message", { refusal: "" }, undefined],
    ["not known yet (a preview)", UNKNOWN_VALUE, undefined],
  ])("%s", (_case, handed, thrown) => {
    const news = { hook, url: "https://Hooks.example.com/x", [CONFIG_PROBLEM_INPUT]: handed };
    if (thrown === undefined) {
      const checked = checkInputs(news);
      expect(checked.failures.map((f) => f.property)).toEqual(["url"]);
      expect(Object.keys(checked.inputs)).not.toContain(CONFIG_PROBLEM_INPUT);
      return;
    }
    expect(() => checkInputs(news)).toThrow(thrown);
  });
});
