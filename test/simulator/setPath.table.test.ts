/**
 * Nested overrides of an event's payload (`set: {"meta.source": "app"}`, `trigger --set meta.source=app`):
 * where a path lands, and why one that does not fit the payload is refused, with the fix.
 */
import { describe, expect, it } from "vitest";
import { parseEvent } from "../../simulator/eventSchema";
import { eventPayloads } from "../../simulator/fixtures";
import { SET_PATH, setAtPath } from "../../simulator/setPath";

const payload = (): Record<string, unknown> => ({
  shipment_id: 7,
  status: 3,
  meta: { source: "app", lines: [{ sku: "a" }] },
  order_id: null,
});

describe("setAtPath: where a path lands", () => {
  it.each<[string, unknown, Record<string, unknown>]>([
    ["meta.source", "web", { meta: { source: "web", lines: [{ sku: "a" }] } }],
    ["meta.lines.0.sku", "b", { meta: { source: "app", lines: [{ sku: "b" }] } }],
    ["meta.lines.1", { sku: "c" }, { meta: { source: "app", lines: [{ sku: "a" }, { sku: "c" }] } }],
    ["data.x", 1, { data: { x: 1 } }],
    ["a.b.c", [1], { a: { b: { c: [1] } } }],
    ["constructor.x", 1, { constructor: { x: 1 } }],
  ])("%s = %j", (path, value, expected) => {
    const target = payload();
    expect(setAtPath(target, path, value)).toBeUndefined();
    expect(target).toMatchObject(expected);
  });
});

describe("setAtPath: a path that does not fit, refused with the reason and the fix", () => {
  it.each<[string, RegExp]>([
    ["status.code", /^status is 3, and a path goes on only through an object or an array; set status itself/],
    ["order_id.x", /^order_id is null, and a path goes on only/],
    ["meta.source.x", /^meta\.source is "app", and a path/],
    ["meta.lines.x", /^meta\.lines is an array of 1 items; name an index \(0-0\) after it, not "x"/],
    [
      "meta.lines.2",
      /^meta\.lines has 1 items, so meta\.lines\.2 is past its end; use an index from 0 to 1 \(1 appends\)/,
    ],
    [
      "meta.lines.5.sku",
      /^meta\.lines has 1 items, so meta\.lines\.5 is past its end; use an index from 0 to 0$/,
    ],
    ["meta.0", /^meta is an object; an index \(0\) goes into an array: name a field of it instead/],
    [
      "extra.0",
      /^extra is absent and an index needs an array there; set it whole first \(e\.g\. extra=\[\.\.\.\]\)/,
    ],
    ["data.hooks.0.status", /^names the delivery's envelope .*drop "data\.hooks\.0\." \(e\.g\. status\)/],
  ])("%s: %s", (path, problem) => {
    const target = payload();
    expect(setAtPath(target, path, 1)).toMatch(problem);
    expect(target).toEqual(payload());
  });
});

describe("SET_PATH: which names of set are fields or paths", () => {
  it.each<[string, boolean]>([
    ["barcode", true],
    ["meta.source", true],
    ["lines.0.sku", true],
    ["a.b.c.d.e.f.g.h", true],
    ["a.b.c.d.e.f.g.h.i", false],
    ["__proto__", false],
    ["meta.__proto__", false],
    ["meta..x", false],
    ["meta.", false],
    ["0.x", false],
    ["lines.10000", false],
  ])("%s: %s", (name, ok) => {
    expect(SET_PATH.test(name)).toBe(ok);
  });
});

describe("an event whose set holds paths", () => {
  const context = { shopNumber: 1, eventField: "omitted" as const, takeShipmentIds: () => 100 };

  it("sets nested values in each of its events, each its own copy", () => {
    const event = parseEvent({
      kind: "shipment_status_change",
      count: 2,
      set: { meta: { lines: [] }, "meta.source": "app", "meta.lines.0": "x" },
    });
    const [first, second] = eventPayloads(event, context);
    expect(first).toMatchObject({ shipment_id: 100, meta: { lines: ["x"], source: "app" } });
    expect(second).toMatchObject({ shipment_id: 101, meta: { lines: ["x"], source: "app" } });
    expect(first?.meta).not.toBe(second?.meta);
  });

  it("refuses a path that does not fit, naming set.<path>, the reason, the fix and the hook", () => {
    const event = parseEvent({ kind: "order_status_change", set: { "meta.0": 1 } });
    expect(() => eventPayloads(event, context)).toThrow(
      "invalid event: set.meta.0: meta is absent and an index needs an array there; set it whole first (e.g. meta=[...]), then its items (in an order_status_change payload)",
    );
  });

  it("refuses a path into one of the event's own fields: those are set whole and checked", () => {
    expect(() => parseEvent({ kind: "shipment_label_created", set: { "shipment_ids.0": 5 } })).toThrow(
      "invalid event: set.shipment_ids.0: shipment_ids is the event's own field, checked as a whole (an array of 1-1000 positive integers); set it whole, e.g. shipment_ids=[77,78]",
    );
  });

  it("refuses a name that is neither a field nor a path", () => {
    expect(() => parseEvent({ kind: "order_status_change", set: { "meta..x": 1 } })).toThrow(
      /set\.meta\.\.x: must be a field name .* or a path of up to 8/,
    );
  });
});
