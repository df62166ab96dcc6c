/**
 * The ownership rule as data (provider/ownership.ts): each row gives what a resource recorded, what is
 * configured and what the service reported, and the verdict. `delete` acts only on `ours`; `read` keeps only
 * `ours`; `diff` refuses or lets the change go on; `replace` is a replacement's create settling the old id.
 */
import { describe, expect, it } from "vitest";
import type { LiveSubscription } from "../../provider/client/apiSchemas";
import { type CreateFacts, planCreate } from "../../provider/createRule";
import {
  decideRecorded,
  type GoneAnswer,
  type Operation,
  type Recorded,
  type RecordedFacts,
  type ShopFacts,
  type Verdict,
} from "../../provider/ownership";
import type { ShopTarget } from "../../provider/settings";

const API = "http://127.0.0.1:1";
const OTHER_API = "http://127.0.0.1:2";
const HOOK = "order_status_change";
const URL = "https://hooks.example.com/o";

function target(label: string, options: { api?: string; key?: string; pin?: string } = {}): ShopTarget {
  const api = options.api ?? API;
  return {
    api,
    shopKey: `${api}#${options.key ?? label}`,
    label,
    baseUrl: api,
    apiKey: options.key ?? label,
    authScheme: "auto",
    ...(options.pin !== undefined ? { pin: { shopId: options.pin, setting: "shipping:shopId" } } : {}),
  };
}

/** A live subscription: id, then hook and URL (default the recorded ones), and the shop the service reports. */
function live(
  id: number,
  shopId: string | undefined,
  over: Partial<LiveSubscription> = {},
): LiveSubscription {
  return { id, hook: HOOK, url: URL, ...(shopId !== undefined ? { shopId } : {}), ...over };
}

interface ShopSpec {
  readonly listing?: readonly LiveSubscription[];
  readonly listedEmpty?: boolean;
  readonly learnt?: string;
  readonly seen?: boolean;
}
function shop(t: ShopTarget, spec: ShopSpec = {}): ShopFacts {
  return {
    target: t,
    ...(spec.listing !== undefined ? { listing: spec.listing } : {}),
    listedEmpty: spec.listedEmpty ?? spec.listing?.length === 0,
    ...(spec.learnt !== undefined ? { learnt: { shopId: spec.learnt } } : {}),
    seen: spec.seen ?? false,
  };
}

const ACME = target("(default)");
const ALT = target("alt", { key: "acme-second-key" });
const MOVED = target("(default)", { api: OTHER_API });
const PINNED = target("(default)", { pin: "1" });
const RECORDED: Recorded = {
  id: 7,
  hook: HOOK,
  url: URL,
  shop: undefined,
  api: API,
  shopId: "1",
  accountId: undefined,
};
const FROM_01: Recorded = { ...RECORDED, api: undefined, shopId: undefined };
const GONE_ENTRY = new Error('shipping:shops: has no shop "old"');

interface Row {
  readonly op: Operation;
  readonly recorded?: Recorded;
  readonly named: ShopFacts | { missing: unknown };
  readonly others?: readonly ShopFacts[];
  readonly claimedAt?: readonly string[];
  readonly answer?: GoneAnswer;
}

/** A verdict in a few words: its kind, the shop it is at, a warning, or the start of a refusal. */
function summary(verdict: Verdict): string {
  switch (verdict.kind) {
    case "needListing":
    case "needGoneAnswer":
      return `${verdict.kind} ${verdict.target.label}@${verdict.target.api.slice(-1)}`;
    case "ours":
      return `ours at ${verdict.target.label}${verdict.warning === undefined ? "" : ", drifted"}`;
    case "taken":
      return `taken at ${verdict.target.label}`;
    case "gone":
      return verdict.warning === undefined ? "gone" : "gone, warning";
    case "claimed":
      return "claimed";
    case "refuse":
      return `refuse: ${(verdict.error as Error).message}`;
  }
}

const rows: Array<[string, Row, string | RegExp]> = [
  // read: where the recorded subscription is
  [
    "read: listed with its hook, URL and shop",
    { op: "read", named: shop(ACME, { listing: [live(7, "1")] }) },
    "ours at (default)",
  ],
  ["read: the shop not listed yet", { op: "read", named: shop(ACME) }, "needListing (default)@1"],
  [
    "read: listed with another URL (back office, another stack)",
    { op: "read", named: shop(ACME, { listing: [live(7, "1", { url: "https://x.example.com" })] }) },
    "taken at (default)",
  ],
  [
    "read: listed with another hook",
    { op: "read", named: shop(ACME, { listing: [live(7, "1", { hook: "shipment_status_change" })] }) },
    "taken at (default)",
  ],
  [
    "read: absent, the listing shows the recorded shop",
    { op: "read", named: shop(ACME, { listing: [live(8, "1")] }) },
    "gone",
  ],
  [
    "read: absent from a shop that lists nothing, seen there this deployment",
    { op: "read", named: shop(ACME, { listing: [], seen: true }) },
    "gone",
  ],
  [
    "read: absent from a shop that lists nothing: ask the service",
    { op: "read", named: shop(ACME, { listing: [] }) },
    "needGoneAnswer (default)@1",
  ],
  ["read: ... it answers 404", { op: "read", named: shop(ACME, { listing: [] }), answer: "gone" }, "gone"],
  [
    "read: ... the question deleted it (it existed)",
    { op: "read", named: shop(ACME, { listing: [] }), answer: "deleted" },
    "gone, warning",
  ],
  [
    "read: ... 403 owned by another shop",
    { op: "read", named: shop(ACME, { listing: [] }), answer: "elsewhere" },
    /^refuse: shipping:apiKey: subscription 7 .* is not in the default shop's listing, and the service answers that it belongs to another shop/,
  ],
  [
    "read: ... 403, this key may not ask: refresh takes it for gone",
    { op: "read", named: shop(ACME, { listing: [] }), answer: "cannotAsk" },
    "gone, warning",
  ],
  [
    "read: a service that sends no shop_id, id absent: ask",
    { op: "read", named: shop(ACME, { listing: [live(8, undefined)] }) },
    "needGoneAnswer (default)@1",
  ],
  [
    "read: the base URL now reaches another API",
    { op: "read", named: shop(MOVED, { listing: [] }) },
    /^refuse: shipping:baseUrl: the default shop now reaches http:\/\/127\.0\.0\.1:2, but subscription 7 .* was created at http:\/\/127\.0\.0\.1:1/,
  ],
  [
    "read: another API, but another entry is at the recorded one and is the shop",
    { op: "read", named: shop(MOVED), others: [shop(ALT, { listing: [live(7, "1")] })] },
    "ours at alt",
  ],
  [
    "read: the key reaches shop 2; another entry is shop 1",
    {
      op: "read",
      named: shop(ACME, { listing: [live(9, "2")] }),
      others: [shop(ALT, { listing: [live(7, "1")] })],
    },
    "ours at alt",
  ],
  [
    "read: the key reaches shop 2; the other entry not listed yet",
    { op: "read", named: shop(ACME, { listing: [live(9, "2")] }), others: [shop(ALT)] },
    "needListing alt@1",
  ],
  [
    "read: the key reaches shop 2, no other entry is shop 1; the refusal names shop 2 by its entry",
    {
      op: "read",
      named: shop(ACME, { listing: [live(9, "2")] }),
      others: [shop(ALT, { listing: [live(9, "2")] })],
    },
    /^refuse: shipping:apiKey: the key of the default shop now reaches shop alt \(shop_id 2\), but subscription 7 \(order_status_change\) was created in shop_id 1\. Nothing was changed/,
  ],
  [
    "read: the entry is gone; another entry is the shop",
    {
      op: "read",
      recorded: { ...RECORDED, shop: "old" },
      named: { missing: GONE_ENTRY },
      others: [shop(ALT, { listing: [live(7, "1")] })],
    },
    "ours at alt",
  ],
  [
    "read: the entry is gone, no other entry is the shop",
    { op: "read", recorded: { ...RECORDED, shop: "old" }, named: { missing: GONE_ENTRY }, others: [] },
    /^refuse: shipping:shops: subscription 7 .* shop entry "old" .* is gone/,
  ],
  [
    "read: an empty other shop is never taken for the recorded one",
    { op: "read", named: shop(ACME, { listing: [live(9, "2")] }), others: [shop(ALT, { listing: [] })] },
    /^refuse: shipping:apiKey: the key of the default shop now reaches shop_id 2/,
  ],
  [
    "read: state of 0.1 (no API, no shop): the named shop",
    { op: "read", recorded: FROM_01, named: shop(ACME, { listing: [live(7, "1")] }) },
    "ours at (default)",
  ],
  [
    "read: state of 0.1, the shop's key not configured",
    { op: "read", recorded: FROM_01, named: { missing: new Error("shipping:apiKey: is not set") } },
    "refuse: shipping:apiKey: is not set",
  ],
  // the pin
  [
    "read: pinned to 1, the service reports 1",
    { op: "read", named: shop(PINNED, { listing: [live(7, "1")] }) },
    "ours at (default)",
  ],
  [
    "read: pinned to 1, the service reports 2",
    {
      op: "read",
      recorded: { ...RECORDED, shopId: undefined },
      named: shop(PINNED, { listing: [live(9, "2")] }),
    },
    /^refuse: shipping:shopId: pins shop 1, but .* reports shop 2/,
  ],
  [
    "read: pinned, the service sends no shop_id",
    {
      op: "read",
      recorded: { ...RECORDED, shopId: undefined },
      named: shop(PINNED, { listing: [live(7, undefined)] }),
    },
    /^refuse: shipping:shopId: pins shop 1, but .* sends no shop_id/,
  ],
  [
    "read: pinned, the shop lists nothing: nothing to check yet",
    { op: "read", named: shop(PINNED, { listing: [] }), answer: "gone" },
    "gone",
  ],
  [
    "read: pinned, listed nothing, a read-back learnt shop 2",
    { op: "read", named: shop(PINNED, { listing: [], learnt: "2" }) },
    /^refuse: shipping:shopId: pins shop 1/,
  ],
  // delete
  ["delete: ours", { op: "delete", named: shop(ACME, { listing: [live(7, "1")] }) }, "ours at (default)"],
  [
    "delete: another resource of this deployment creates, adopts or keeps the id",
    { op: "delete", named: shop(ACME), claimedAt: [API] },
    "claimed",
  ],
  [
    "delete: claimed at another API is not this id",
    { op: "delete", named: shop(ACME, { listing: [live(7, "1")] }), claimedAt: [OTHER_API] },
    "ours at (default)",
  ],
  [
    "delete: state of 0.1, claimed at the API it is found at",
    { op: "delete", recorded: FROM_01, named: shop(ACME), claimedAt: [API] },
    "claimed",
  ],
  [
    "delete: taken since (another URL)",
    { op: "delete", named: shop(ACME, { listing: [live(7, "1", { url: "https://x.example.com" })] }) },
    "taken at (default)",
  ],
  [
    "delete: absent, 404 to the question",
    { op: "delete", named: shop(ACME, { listing: [] }), answer: "gone" },
    "gone",
  ],
  [
    "delete: absent, this key may not ask: refuse (it may be elsewhere)",
    { op: "delete", named: shop(ACME, { listing: [] }), answer: "cannotAsk" },
    /^refuse: shipping:apiKey: .* refused the DELETE that asks/,
  ],
  [
    "delete: the key reaches shop 2",
    { op: "delete", named: shop(ACME, { listing: [live(9, "2")] }) },
    /^refuse: shipping:apiKey: the key of the default shop now reaches shop_id 2/,
  ],
  // diff: refuses before any write, asks the service nothing
  [
    "diff: the same API and shop",
    { op: "diff", named: shop(ACME, { listing: [live(7, "1")] }) },
    "ours at (default)",
  ],
  [
    "diff: the recorded id is gone from the recorded shop: go on, and say so",
    { op: "diff", named: shop(ACME, { listing: [live(8, "1")] }) },
    "ours at (default), drifted",
  ],
  [
    "diff: the recorded id points at another URL now: go on, and say so",
    { op: "diff", named: shop(ACME, { listing: [live(7, "1", { url: "https://x.example.com" })] }) },
    "ours at (default), drifted",
  ],
  ["diff: the shop not listed yet", { op: "diff", named: shop(ACME) }, "needListing (default)@1"],
  [
    "diff: another API",
    { op: "diff", named: shop(MOVED) },
    /^refuse: shipping:baseUrl: the default shop now reaches http:\/\/127\.0\.0\.1:2, but subscription 7/,
  ],
  [
    "diff: the key reaches shop 2",
    { op: "diff", named: shop(ACME, { listing: [live(9, "2")] }) },
    /^refuse: shipping:apiKey: the key of the default shop now reaches shop_id 2/,
  ],
  [
    "diff: the shop lists nothing: it cannot say which it is",
    { op: "diff", named: shop(ACME, { listing: [] }) },
    /^refuse: shipping:apiKey: .* now lists no subscription at all/,
  ],
  [
    "diff: no shop recorded (service sends none): nothing to compare",
    { op: "diff", recorded: { ...RECORDED, shopId: undefined }, named: shop(ACME) },
    "ours at (default)",
  ],
  [
    "diff: state of 0.1: nothing to compare",
    { op: "diff", recorded: FROM_01, named: shop(MOVED) },
    "ours at (default)",
  ],
  [
    "diff: never looks elsewhere (a changed shop input replaces)",
    {
      op: "diff",
      named: shop(ACME, { listing: [live(9, "2")] }),
      others: [shop(ALT, { listing: [live(7, "1")] })],
    },
    /^refuse: shipping:apiKey/,
  ],
  [
    "diff: pinned to 1, the key reaches 2",
    { op: "diff", named: shop(PINNED, { listing: [live(9, "2")] }) },
    /^refuse: shipping:shopId: pins shop 1/,
  ],
  // a replacement's create settles the recorded id in its shop first
  [
    "replace: the old id is listed in the shop",
    { op: "replace", named: shop(ACME, { listing: [live(7, "1")] }) },
    "ours at (default)",
  ],
  [
    "replace: absent, the listing shows the shop",
    { op: "replace", named: shop(ACME, { listing: [live(8, "1")] }) },
    "gone",
  ],
  [
    "replace: absent from a shop that lists nothing: ask",
    { op: "replace", named: shop(ACME, { listing: [] }) },
    "needGoneAnswer (default)@1",
  ],
  [
    "replace: ... another shop's: refuse before writing",
    { op: "replace", named: shop(ACME, { listing: [] }), answer: "elsewhere" },
    /^refuse: shipping:apiKey: .* belongs to another shop/,
  ],
  [
    "replace: ... this key may not ask: refuse",
    { op: "replace", named: shop(ACME, { listing: [] }), answer: "cannotAsk" },
    /^refuse: shipping:apiKey: .* refused the DELETE/,
  ],
];

describe("the ownership rule: a recorded subscription", () => {
  it.each(rows)("%s", (_, row, expected) => {
    const facts: RecordedFacts = {
      operation: row.op,
      recorded: row.recorded ?? RECORDED,
      named: row.named,
      others: row.others ?? [],
      claimedAt: row.claimedAt ?? [],
      ...(row.answer !== undefined ? { goneAnswer: row.answer } : {}),
    };
    const verdict = summary(decideRecorded(facts));
    if (typeof expected === "string") expect(verdict).toBe(expected);
    else expect(verdict).toMatch(expected);
  });
});

const creates: Array<[string, Partial<CreateFacts>, string]> = [
  ["no live subscription of the hook: POST", {}, "post"],
  ["live with the declared URL: adopt, no write", { live: live(3, "1") }, "adopt"],
  [
    "live with another URL (an ERP, another stack): POST over it",
    { live: live(3, "1", { url: "https://erp.example.com" }) },
    "post",
  ],
  ["the same hook twice in one batch: refuse", { duplicate: true }, "refuse"],
  [
    "another key of the same shop created the hook this deployment: refuse",
    { createdByOtherKey: true },
    "refuse",
  ],
  [
    "live and kept by another resource of the program: refuse",
    { live: live(3, "1"), liveKept: true },
    "refuse",
  ],
];

describe("the ownership rule: a create", () => {
  it.each(creates)("%s", (_, facts, expected) => {
    const plan = planCreate({
      url: URL,
      duplicate: false,
      createdByOtherKey: false,
      liveKept: false,
      ...facts,
    });
    expect(plan.kind).toBe(expected);
  });
});
