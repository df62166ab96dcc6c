/**
 * The ownership rule as data (provider/rules/ownership.ts), for `read`: where the recorded subscription is, what a
 * refresh keeps (only `ours`), when it asks the service, and the refusals of a moved API, key or shop entry,
 * and of a pin. Each row gives what a resource recorded, what is configured and what the service reported,
 * and the verdict. The delete, diff, replace and create tables are ownership.writes.test.ts.
 */
import { describe, expect, it } from "vitest";
import {
  ACME,
  ALT,
  FROM_01,
  GONE_ENTRY,
  IN_ACCOUNT_A,
  live,
  MOVED,
  PINNED,
  RECORDED,
  type Row,
  shop,
  verdictOf,
} from "./ownershipRows";

const rows: Array<[string, Row, string | RegExp]> = [
  // read: where the recorded subscription is
  [
    "read: listed with its hook, URL and shop",
    { op: "read", named: shop(ACME, { listing: [live(7, "1")] }) },
    "ours at (default)",
  ],
  ["read: the shop not listed yet", { op: "read", named: shop(ACME) }, "needListing (default)@1"],
  // read: a write the service applied late (after its client gave up) replaced the recorded id
  [
    "read: the recorded id gone, the same hook and URL live as 9 in the recorded shop: ours, as 9",
    { op: "read", named: shop(ACME, { listing: [live(9, "1")] }) },
    "ours at (default) as 9",
  ],
  [
    "read: ... but another resource of this deployment holds 9: gone",
    { op: "read", named: shop(ACME, { listing: [live(9, "1")] }), claimedLive: [9] },
    "gone",
  ],
  [
    "read: the recorded id gone, the hook live as 9 at another URL: gone (not ours)",
    { op: "read", named: shop(ACME, { listing: [live(9, "1", { url: "https://x.example.com" })] }) },
    "gone",
  ],
  [
    "read: the recorded id gone, the URL live as 9 for another hook: gone",
    { op: "read", named: shop(ACME, { listing: [live(9, "1", { hook: "shipment_status_change" })] }) },
    "gone",
  ],
  [
    "read: the same hook and URL as 9, the service names no shop: ask (the key may reach another shop)",
    { op: "read", named: shop(ACME, { listing: [live(9, undefined)] }) },
    "needGoneAnswer (default)@1",
  ],
  [
    "read: the recorded id still live: ours as recorded, whatever else is listed",
    {
      op: "read",
      named: shop(ACME, { listing: [live(7, "1"), live(9, "1", { hook: "shipment_status_change" })] }),
    },
    "ours at (default)",
  ],
  [
    "read: the same hook and URL as 9 under another key of the recorded shop: ours there, as 9",
    {
      op: "read",
      named: shop(ACME, { listing: [live(8, "2")] }),
      others: [shop(ALT, { listing: [live(9, "1")] })],
    },
    "ours at alt as 9",
  ],
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
    "read: absent, the listing shows the recorded shop (another hook)",
    { op: "read", named: shop(ACME, { listing: [live(8, "1", { hook: "shipment_status_change" })] }) },
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
  // the account: shop ids are the service's per account, so shop 1 of another account is another shop
  [
    "read: recorded in shop 1 of account a, listed in shop 1 of account a: ours",
    {
      op: "read",
      recorded: IN_ACCOUNT_A,
      named: shop(ACME, { listing: [live(7, "1", { accountId: "a" })] }),
    },
    "ours at (default)",
  ],
  [
    "read: recorded in account a, the service names no account: ours (nothing tells them apart)",
    { op: "read", recorded: IN_ACCOUNT_A, named: shop(ACME, { listing: [live(7, "1")] }) },
    "ours at (default)",
  ],
  [
    "read: recorded in shop 1 of account a, the key reaches shop 1 of account b: refuse",
    {
      op: "read",
      recorded: IN_ACCOUNT_A,
      named: shop(ACME, { listing: [live(7, "1", { accountId: "b" })] }),
    },
    /^refuse: shipping:apiKey: the key of the default shop now reaches shop_id 1, but subscription 7/,
  ],
  [
    "read: ... and another entry is shop 1 of account a: ours there",
    {
      op: "read",
      recorded: IN_ACCOUNT_A,
      named: shop(ACME, { listing: [live(9, "1", { accountId: "b" })] }),
      others: [shop(ALT, { listing: [live(7, "1", { accountId: "a" })] })],
    },
    "ours at alt",
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
    "read: pinned, the shop listed subscriptions at first and lists none now (this deployment deleted them): nothing to check",
    { op: "read", named: shop(PINNED, { listing: [], listedEmpty: false }), answer: "gone" },
    "gone",
  ],
  [
    "read: pinned, the shop listed nothing at first and lists a subscription with no shop_id now: nothing to check",
    {
      op: "read",
      recorded: { ...RECORDED, shopId: undefined },
      named: shop(PINNED, { listing: [live(7, undefined)], listedEmpty: true }),
    },
    "ours at (default)",
  ],
  [
    "read: pinned, listed nothing, a read-back learnt shop 2",
    { op: "read", named: shop(PINNED, { listing: [], learnt: "2" }) },
    /^refuse: shipping:shopId: pins shop 1/,
  ],
];

describe("the ownership rule: a recorded subscription", () => {
  it.each(rows)("%s", (_, row, expected) => {
    const verdict = verdictOf(row);
    if (typeof expected === "string") expect(verdict).toBe(expected);
    else expect(verdict).toMatch(expected);
  });
});
