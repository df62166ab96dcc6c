/**
 * Issue 36 item 1: an answer's size is bounded whatever the request. A 1 MiB POST of 349,000 `{}` items once
 * got a 422 of 210 MB (13 s, 1.5 GB RSS here) while innocent clients waited; now it lists the first
 * MAX_ERROR_ITEMS problems and counts the rest.
 */
import { describe, expect, it, vi } from "vitest";
import { MAX_ERROR_ITEMS, MAX_ERROR_MESSAGE_CHARS, SCANNED_BODY_MIN_CHARS } from "../../simulator/constants";
import { ApiError, ErrorItems, errorBody } from "../../simulator/errors";
import { api, call, errorOf, expectErrorShape, startSim } from "./helpers";

/** Largest error answer this file accepts, in bytes: 100 items of at most 1,000 characters, twice, and JSON. */
const ANSWER_BOUND_BYTES = 2 * MAX_ERROR_ITEMS * (MAX_ERROR_MESSAGE_CHARS + 100);
/** The body limit (DEFAULT_BODY_LIMIT_BYTES) filled with `{}` items. */
const HOSTILE_ITEMS = Math.floor((1024 * 1024 - 40) / 3);

function hostileBody(items: number): string {
  return `{"data":{"webhook_subscriptions":[${Array(items).fill("{}").join(",")}]}}`;
}

/** Brackets around the `{}` items of nestedBody: deeper than jsonScan.ts MAX_CUT_DEPTH (8). */
const NESTING = 9;

/** `{"x":[[[[[[[[[{},{},…]]]]]]]]]}`: the items of hostileBody below the depth where parsedStart stops cutting. */
function nestedBody(items: number): string {
  return `{"x":${"[".repeat(NESTING)}${Array(items).fill("{}").join(",")}${"]".repeat(NESTING)}}`;
}

describe("a 422 for a body of 349,000 `{}` items", () => {
  it("lists the first 100 problems, counts the rest, and stays small; a parallel GET / is answered", async () => {
    const sim = await startSim();
    const body = hostileBody(HOSTILE_ITEMS);
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(1024 * 1024);
    const hostile = api(sim, "POST", "/webhook_subscriptions", {
      body,
      headers: { "content-type": "application/json" },
    });
    // The GET waited the 13 s of writing the 210 MB answer: the answer's size below is what keeps it short.
    const innocent = call(sim.baseUrl, "GET", "/");
    const [reply, root] = await Promise.all([hostile, innocent]);
    expect(root.status).toBe(200);
    expect(reply.status).toBe(422);
    expect(Buffer.byteLength(reply.text)).toBeLessThan(ANSWER_BOUND_BYTES);
    expectErrorShape(reply);
    const answer = errorOf(reply);
    expect(answer.errors).toHaveLength(MAX_ERROR_ITEMS);
    // Two problems an item (hook and url missing), in order.
    expect(answer.errors[0]?.message).toMatch(/webhook_subscriptions\[0\]\.hook is missing/);
    expect(answer.errors.at(-1)?.message).toMatch(/webhook_subscriptions\[49\]\.url is missing/);
    const found = 2 * HOSTILE_ITEMS;
    expect(answer.message).toContain(
      `; and ${found - MAX_ERROR_ITEMS} more problems not listed (${found} in all`,
    );
    expect(sim.subscriptions("demo")).toEqual([]);
  });

  it("is checked an item at a time: no JSON.parse of the whole body, and the request log keeps its start", async () => {
    const sim = await startSim();
    const original = JSON.parse;
    let longest = 0;
    const parse = vi.spyOn(JSON, "parse").mockImplementation((text, reviver) => {
      longest = Math.max(longest, String(text).length);
      return original(text, reviver);
    });
    try {
      const reply = await api(sim, "POST", "/webhook_subscriptions", {
        body: hostileBody(HOSTILE_ITEMS),
        headers: { "content-type": "application/json" },
      });
      expect(reply.status).toBe(422);
      expect(errorOf(reply).message).toContain(`(${2 * HOSTILE_ITEMS} in all`);
      expect(longest).toBeLessThan(SCANNED_BODY_MIN_CHARS);
    } finally {
      parse.mockRestore();
    }
    const logged = sim.requests().at(-1);
    expect(logged?.bodyTruncated).toBe(true);
    expect(logged?.bodyPreview).toMatch(/^\{"data":\{"webhook_subscriptions":\[\{\},\{\},/);

    // The same items nested past the depth where the log's start stops cutting: still no whole parse
    // (before the fix the log's start parsed the innermost 1 MiB array whole, 349,000 objects).
    longest = 0;
    const nested = nestedBody(HOSTILE_ITEMS - 10);
    expect(Buffer.byteLength(nested)).toBeLessThanOrEqual(1024 * 1024);
    const again = vi.spyOn(JSON, "parse").mockImplementation((text, reviver) => {
      longest = Math.max(longest, String(text).length);
      return original(text, reviver);
    });
    try {
      const reply = await api(sim, "POST", "/webhook_subscriptions", {
        body: nested,
        headers: { "content-type": "application/json" },
      });
      expect(reply.status).toBe(422);
      expect(longest).toBeLessThan(SCANNED_BODY_MIN_CHARS);
    } finally {
      again.mockRestore();
    }
    const nestedLog = sim.requests().at(-1);
    expect(nestedLog?.bodyTruncated).toBe(true);
    // Its start down to the depth where cutting stops, then a placeholder for the container too large to parse.
    expect(nestedLog?.bodyPreview).toMatch(/^\{"x":\[+"\[…\]"\]+\}$/);
  });

  it("answers a handful of problems in full, as before (no count)", async () => {
    const sim = await startSim();
    const reply = await api(sim, "POST", "/webhook_subscriptions", {
      body: hostileBody(3),
      headers: { "content-type": "application/json" },
    });
    const answer = errorOf(reply);
    expect(answer.errors).toHaveLength(6);
    expect(answer.message).not.toMatch(/more problems/);
  });
});

describe("errorBody and ErrorItems", () => {
  const item = (message: string) => ({ status: 422, code: 10001, title: "Invalid subscription", message });

  it.each([
    // [problems found, items listed, the count in the message]
    [1, 1, undefined],
    [MAX_ERROR_ITEMS, MAX_ERROR_ITEMS, undefined],
    [MAX_ERROR_ITEMS + 1, MAX_ERROR_ITEMS, "; and 1 more problems not listed (101 in all"],
    [349_512, MAX_ERROR_ITEMS, "; and 349412 more problems not listed (349512 in all"],
  ])("%i problems: %i listed, count %s", (found, listed, count) => {
    const collected = new ErrorItems();
    for (let i = 0; i < found; i += 1) collected.push(item(`problem ${i}`));
    expect(collected.items).toHaveLength(listed);
    const body = errorBody(collected.items, "1.ab", collected.total);
    expect(body.errors).toHaveLength(listed);
    if (count === undefined) expect(body.message).not.toMatch(/more problems/);
    else expect(body.message).toContain(count);
  });

  it("cuts a message longer than MAX_ERROR_MESSAGE_CHARS, in errors[] and in the joined message", () => {
    const error = ApiError.many(422, [item("x".repeat(10 * MAX_ERROR_MESSAGE_CHARS))]);
    const body = errorBody(error.items, "1.ab", error.total);
    expect(body.errors[0]?.message).toHaveLength(MAX_ERROR_MESSAGE_CHARS);
    expect(body.errors[0]?.message.endsWith("...")).toBe(true);
    expect(body.message.length).toBeLessThan(MAX_ERROR_MESSAGE_CHARS + 40);
  });
});
