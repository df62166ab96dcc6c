/**
 * What the stack records, as a deployment saw it (facts/stackRecords.ts): a live subscription is held only at
 * the hook and URL a resource records, in the same shop; a re-point (another URL) is not held, whatever its id.
 */
import { describe, expect, it } from "vitest";
import { StackRecords } from "../../provider/facts/stackRecords";
import { urlDigest } from "../../provider/rules/recorded";
import { ACME, ALT } from "./ownershipRows";

const OURS = { id: 7, hook: "order_status_change", url: "https://hooks.example.com/o" };

const rows: Array<[string, { id: number; hook: string; url: string }, typeof ACME, boolean]> = [
  ["the recorded hook and URL, same shop", OURS, ACME, true],
  ["the recorded hook and URL as a preview's digest", { ...OURS, url: urlDigest(OURS.url) }, ACME, true],
  [
    "the recorded hook re-pointed at another URL (a partner, keep-id)",
    { ...OURS, url: "https://p.example.com" },
    ACME,
    false,
  ],
  ["another hook at the recorded URL", { ...OURS, hook: "shipment_label_created" }, ACME, false],
  ["the recorded hook and URL under another key of the shop, the same id", OURS, ALT, true],
  ["the recorded hook and URL under another key, another id (another shop)", { ...OURS, id: 8 }, ALT, false],
];

describe("StackRecords.holds", () => {
  it.each(rows)("%s: %s", (_, live, target, held) => {
    const records = new StackRecords();
    records.note(ACME, OURS);
    expect(records.holds(target, live)).toBe(held);
  });

  it("tells how a declared resource's diff left a recorded id, per API", () => {
    const records = new StackRecords();
    records.noteDiffed("https://a.example", 1, "handsOn");
    expect(records.diffedAs("https://a.example", 1)).toBe("handsOn");
    // Id 1 of another API is another subscription: its delete asks the declarations (not "keeps its hook").
    records.noteDiffed("https://c.example", 2, "keepsHook");
    expect(records.diffedAs("https://b.example", 1)).toBeUndefined();
    expect(records.diffedAs("https://a.example", 2)).toBeUndefined();
  });
});
