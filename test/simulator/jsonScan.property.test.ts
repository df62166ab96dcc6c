/**
 * jsonScan.ts reads a large POST body without building it: its grammar check must decide exactly as
 * JSON.parse does, and validateCreateText must answer exactly as validateCreateBody(JSON.parse(text)).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../simulator/errors";
import { isJsonText, parsedStart } from "../../simulator/jsonScan";
import { validateCreateBody, validateCreateText } from "../../simulator/validation";

const parses = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/** What a validation answers: the items, or the 422's status, count and messages. */
function outcome(validate: () => unknown): unknown {
  try {
    return { ok: validate() };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { status: error.status, total: error.total, messages: error.items.map((i) => i.message) };
  }
}

/** JSON texts with whitespace of every kind JSON allows between tokens. */
const spaced = fc
  .tuple(fc.json({ maxDepth: 4 }), fc.constantFrom(" ", "\t", "\n", "\r", "  \n "))
  .map(([text, space]) => text.replace(/([,:[\]{}])/g, `${space}$1${space}`))
  .filter(parses);

/** A JSON text with one character inserted, removed or replaced (mostly not JSON any more). */
const mutated = fc
  .tuple(
    fc.json({ maxDepth: 3 }),
    fc.nat(),
    fc.constantFrom("", ",", "]", "}", '"', "\\", "-", "0", "e", ".", "\u0001", "\ufeff", " ", "tru", "nul"),
    fc.boolean(),
  )
  .map(([text, at, insert, replace]) => {
    const i = at % (text.length + 1);
    return text.slice(0, i) + insert + text.slice(replace ? i + 1 : i);
  });

const SUBSCRIPTION_ITEMS = [
  "{}",
  "null",
  "[]",
  '{"hook":"order_status_change","url":"https://example.com/a"}',
  '{"hook":"order_status_change","url":"https://example.com/b"}',
  '{"hook":"shipment_status_change","url":"HTTPS://EXAMPLE.COM"}',
  '{"hook":"bogus","url":"https://example.com/c"}',
  '{"hook":1e99999,"url":5}',
  '{"url":"https://example.com/d","hook":"shipment_label_created","hook":"order_status_change"}',
];

/** POST bodies: envelopes of every shape around lists of good and bad items, duplicate keys included. */
const bodies = fc
  .tuple(
    fc.array(fc.constantFrom(...SUBSCRIPTION_ITEMS), { maxLength: 8 }),
    fc.constantFrom(
      '{"data":{"webhook_subscriptions":LIST}}',
      '{"data":{"webhook_subscriptions":LIST},"data":{"webhook_subscriptions":[]}}',
      '{"data":{"webhook_subscriptions":[]},"data":{"webhook_subscriptions":LIST}}',
      '{"d\\u0061ta":{"webhook_subscriptions":LIST,"x":[1,2]}}',
      '{"data":{"webhook_subscriptions":{"0":1}}}',
      '{"data":[LIST]}',
      "[LIST]",
      '{"data":null}',
      '{"other":LIST}',
      ' \n{ "data" : { "webhook_subscriptions" : LIST } } ',
    ),
  )
  .map(([items, envelope]) => envelope.replace("LIST", `[${items.join(" , ")}]`));

describe("isJsonText decides as JSON.parse does", () => {
  it.each([
    ["{}", true],
    [' [1, -0.5e+3, true, null, "a\\u00e9\\n"] ', true],
    ["", false],
    ["\ufeff{}", false],
    ["[1,]", false],
    ["-", false],
    ["01", false],
    ["1.", false],
    ['"\u0001"', false],
    ['"\\x"', false],
    ['{"a" 1}', false],
    ["[1] x", false],
    ["[".repeat(100_000) + "]".repeat(100_000), true],
  ])("%j: %s", (text, valid) => {
    expect(isJsonText(text)).toBe(valid);
    expect(parses(text)).toBe(valid);
  });

  it("agrees with JSON.parse on generated and mutated texts", () => {
    fc.assert(
      fc.property(fc.oneof(fc.json(), spaced, mutated), (text) => {
        expect(isJsonText(text)).toBe(parses(text));
      }),
      { numRuns: 3_000 },
    );
  });
});

describe("validateCreateText answers as validateCreateBody of the parsed body", () => {
  it("on generated bodies of good, bad and duplicate items in every envelope", () => {
    fc.assert(
      fc.property(bodies, (text) => {
        expect(parses(text)).toBe(true);
        expect(outcome(() => validateCreateText(text))).toEqual(
          outcome(() => validateCreateBody(JSON.parse(text))),
        );
      }),
      { numRuns: 2_000 },
    );
  });
});

describe("parsedStart", () => {
  it("keeps the start of a large array and says it cut; a small value whole", () => {
    const text = `{"data":{"webhook_subscriptions":[${Array(10_000).fill("{}").join(",")}]}}`;
    const { value, cut } = parsedStart(text, { start: 0, end: text.length }, 100);
    expect(cut).toBe(true);
    const list = (value as { data: { webhook_subscriptions: unknown[] } }).data.webhook_subscriptions;
    expect(list.length).toBeGreaterThan(0);
    expect(list.length).toBeLessThan(100);
    expect(parsedStart('{"a":[1,2]}', { start: 0, end: 11 }, 100)).toEqual({
      value: { a: [1, 2] },
      cut: false,
    });
  });

  it("past the depth where it stops cutting, keeps a placeholder for a container over the budget, never parses it", () => {
    const text = `{"x":${"[".repeat(9)}${Array(10_000).fill("{}").join(",")}${"]".repeat(9)}}`;
    const { value, cut } = parsedStart(text, { start: 0, end: text.length }, 100);
    expect(cut).toBe(true);
    expect(JSON.stringify(value)).toBe(`{"x":${"[".repeat(7)}"[…]"${"]".repeat(7)}}`);
    // Small enough for the budget: parsed whole, however deep.
    const small = `{"x":${"[".repeat(12)}{}${"]".repeat(12)}}`;
    expect(parsedStart(small, { start: 0, end: small.length }, 100)).toEqual({
      value: JSON.parse(small),
      cut: false,
    });
  });
});
