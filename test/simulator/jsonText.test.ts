/** The iterative JSON serialiser the request log uses: same text as JSON.stringify, at any depth. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { describeValue, stringifyJson } from "../../simulator/jsonText";

const SEED = 1123;

describe("stringifyJson", () => {
  it("writes what JSON.stringify writes, for any value JSON.parse can produce", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const parsed = JSON.parse(JSON.stringify(value)) as unknown;
        expect(stringifyJson(parsed)).toBe(JSON.stringify(parsed));
      }),
      { seed: SEED, numRuns: 2_000 },
    );
  });

  it("maps every string, keys included, and keeps a key named __proto__", () => {
    const parsed = JSON.parse('{"__proto__":{"secret":"a secret"},"list":["secret",1,null,true]}') as unknown;
    const text = stringifyJson(parsed, (s) => s.replaceAll("secret", "[REDACTED]"));
    expect(text).toBe('{"__proto__":{"[REDACTED]":"a [REDACTED]"},"list":["[REDACTED]",1,null,true]}');
  });

  it("handles 100,000 levels of nesting, where JSON.stringify overflows the stack", () => {
    const depth = 100_000;
    const parsed = JSON.parse(`${"[".repeat(depth)}${"]".repeat(depth)}`) as unknown;
    expect(() => JSON.stringify(parsed)).toThrow(RangeError);
    expect(stringifyJson(parsed)).toHaveLength(2 * depth);
  });

  it("stops soon after limitChars, answering a longer (incomplete) text", () => {
    const parsed = Array.from({ length: 10_000 }, (_, i) => i);
    const text = stringifyJson(parsed, undefined, 100);
    expect(text.length).toBeGreaterThan(100);
    expect(text.length).toBeLessThan(120);
    expect(JSON.stringify(parsed).startsWith(text)).toBe(true);
  });
});

describe("describeValue", () => {
  it.each([
    [[1, 2], "an array"],
    [{ a: 1 }, "an object"],
    [null, "null"],
    [42, "42"],
    ["hook", '"hook"'],
    ["h".repeat(500), `"${"h".repeat(100)}..."`],
  ])("%j is %s", (value, shown) => {
    expect(describeValue(value)).toBe(shown);
  });
});
