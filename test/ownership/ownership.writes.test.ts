/**
 * The ownership rule as data (provider/rules/ownership.ts, provider/rules/createRule.ts), before a write: `delete` acts
 * only on `ours` (and not on an id another resource claims); `diff` refuses or lets the change go on, asking
 * the service nothing; `replace` is a replacement's create settling the old id; and a create posts, adopts or
 * refuses. Each row gives what is recorded, configured and reported, and the verdict. The read table is
 * ownership.read.test.ts.
 */
import { describe, expect, it } from "vitest";
import { type CreateFacts, type CreatePlan, planCreate } from "../../provider/rules/createRule";
import { decideRecorded } from "../../provider/rules/ownership";
import { urlDigest } from "../../provider/rules/recorded";
import {
  ACME,
  ALT,
  API,
  declaredFor,
  declaredThrough,
  FROM_01,
  IN_ACCOUNT_A,
  live,
  MOVED,
  OTHER_API,
  PINNED,
  RECORDED,
  type Row,
  shop,
  URL,
  verdictOf,
} from "./ownershipRows";

const rows: Array<[string, Row, string | RegExp]> = [
  // delete
  ["delete: ours", { op: "delete", named: shop(ACME, { listing: [live(7, "1")] }) }, "ours at (default)"],
  [
    "delete: another resource of the deployment declares the hook for this shop and has not taken it: refuse",
    { op: "delete", named: shop(ACME, { listing: [live(7, "1")] }), declaredIn: [declaredFor(ACME)] },
    /^refuse: not deleting subscription 7 \(order_status_change\) of the default shop: another resource/,
  ],
  [
    "delete: ... and the shop not listed again since the deployment's other processes wrote: list it afresh first",
    {
      op: "delete",
      named: shop(ACME, { listing: [live(7, "1")] }),
      declaredIn: [declaredFor(ACME)],
      relisted: false,
    },
    "needListing (default)@1 afresh",
  ],
  [
    "delete: ... listed afresh, the recorded id gone (that resource's create, in another process, overwrote it): gone",
    {
      op: "delete",
      named: shop(ACME, { listing: [live(8, "1", { url: "https://hooks.example.com/other" })] }),
      declaredIn: [declaredFor(ACME)],
    },
    "gone",
  ],
  [
    "delete: another resource declares the hook for this shop, where the service names no shop: refuse all the same",
    { op: "delete", named: shop(ACME, { listing: [live(7, undefined)] }), declaredIn: [declaredFor(ACME)] },
    /^refuse: not deleting subscription 7 \(order_status_change\) of the default shop: another resource/,
  ],
  [
    "delete: the hook is declared for this shop at the recorded URL (the recorded resource, replaced by up --replace): ours",
    {
      op: "delete",
      named: shop(ACME, { listing: [live(7, "1")] }),
      declaredIn: [declaredFor(ACME, "recordedUrl")],
    },
    "ours at (default)",
  ],
  [
    "delete: ... at the recorded URL, and the hook's create failed (a rename without an alias that kept the URL): refuse",
    {
      op: "delete",
      named: shop(ACME, { listing: [live(7, "1")] }),
      declaredIn: [declaredFor(ACME, "recordedUrl", true)],
    },
    /^refuse: not deleting subscription 7 \(order_status_change\) of the default shop: another resource/,
  ],
  [
    "delete: ... at another URL, and the hook's create failed: refuse",
    {
      op: "delete",
      named: shop(ACME, { listing: [live(7, "1")] }),
      declaredIn: [declaredFor(ACME, "otherUrl", true)],
    },
    /^refuse: not deleting subscription 7 \(order_status_change\) of the default shop: another resource/,
  ],
  [
    "delete: ... at the recorded URL in another shop, whose create failed: ours",
    {
      op: "delete",
      named: shop(ACME, { listing: [live(7, "1")] }),
      declaredIn: [declaredFor(ALT, "recordedUrl", true)],
    },
    "ours at (default)",
  ],
  [
    "delete: another process's own key declares the hook in the recorded shop at another URL: refuse",
    {
      op: "delete",
      named: shop(ACME, { listing: [live(7, "1")] }),
      declaredIn: [declaredThrough("recordedShop", "otherUrl", false)],
    },
    /^refuse: not deleting subscription 7 \(order_status_change\) of the default shop: another resource/,
  ],
  [
    "delete: another process's resource kept unchanged declares the hook in the recorded shop at another URL (its record stale): refuse",
    {
      op: "delete",
      named: shop(ACME, { listing: [live(7, "1")] }),
      declaredIn: [{ ...declaredThrough("recordedShop", "otherUrl", false), keptUnchanged: true }],
    },
    /^refuse: not deleting subscription 7 \(order_status_change\) of the default shop: another resource/,
  ],
  [
    "delete: ... kept unchanged, at the recorded URL: the live subscription is that resource's as declared, left to it",
    {
      op: "delete",
      named: shop(ACME, { listing: [live(7, "1")] }),
      declaredIn: [{ ...declaredThrough("recordedShop", "recordedUrl", false), keptUnchanged: true }],
    },
    "claimed",
  ],
  [
    "delete: ... in the recorded shop at the recorded URL, its create not failed (up --replace under it): ours",
    {
      op: "delete",
      named: shop(ACME, { listing: [live(7, "1")] }),
      declaredIn: [declaredThrough("recordedShop", "recordedUrl", false)],
    },
    "ours at (default)",
  ],
  [
    "delete: ... in no shop the service named (its listings failed), and its create failed: refuse this time",
    {
      op: "delete",
      named: shop(ACME, { listing: [live(7, "1")] }),
      declaredIn: [declaredThrough("unplaced", "otherUrl", true)],
    },
    /^refuse: not deleting subscription 7 \(order_status_change\) of the default shop: another resource/,
  ],
  [
    "delete: ... in no shop the service named, its create not failed (it may be another shop's hook): ours",
    {
      op: "delete",
      named: shop(ACME, { listing: [live(7, "1")] }),
      declaredIn: [declaredThrough("unplaced", "otherUrl", false)],
    },
    "ours at (default)",
  ],
  [
    "delete of a replacement's old half whose hook changed, another process's own key declares it in the recorded shop: left to it",
    {
      op: "delete",
      named: shop(ACME, { listing: [live(7, "1")] }),
      handedOnIn: [declaredThrough("recordedShop", "otherUrl", false)],
    },
    "claimed",
  ],
  [
    "delete of a replacement's old half whose hook changed, the hook now declared by another resource: left to it",
    { op: "delete", named: shop(ACME, { listing: [live(7, "1")] }), handedOnIn: [declaredFor(ACME)] },
    "claimed",
  ],
  [
    "delete of a replacement's old half whose hook changed, another resource declares the hook at its URL: ours",
    {
      op: "delete",
      named: shop(ACME, { listing: [live(7, "1")] }),
      handedOnIn: [declaredFor(ACME, "recordedUrl")],
    },
    "ours at (default)",
  ],
  [
    "delete of a replacement's old half whose hook changed, ... at its URL, and that create failed: left to it",
    {
      op: "delete",
      named: shop(ACME, { listing: [live(7, "1")] }),
      handedOnIn: [declaredFor(ACME, "recordedUrl", true)],
    },
    "claimed",
  ],
  [
    "delete of a replacement's old half whose hook changed, the hook declared in another shop only: ours",
    { op: "delete", named: shop(ACME, { listing: [live(7, "1")] }), handedOnIn: [declaredFor(ALT)] },
    "ours at (default)",
  ],
  [
    "delete: the hook is declared for another shop only: ours",
    { op: "delete", named: shop(ACME, { listing: [live(7, "1")] }), declaredIn: [declaredFor(ALT)] },
    "ours at (default)",
  ],
  [
    "delete: the hook is declared under another key that the service reports to be the same shop: refuse",
    {
      op: "delete",
      named: shop(ACME, { listing: [live(7, "1")] }),
      others: [shop(ALT, { listing: [live(9, "1", { hook: "shipment_status_change" })] })],
      declaredIn: [declaredFor(ALT)],
    },
    /^refuse: not deleting subscription 7 \(order_status_change\) of the default shop: another resource/,
  ],
  [
    "delete: ... under another key the service reports to be another shop: ours",
    {
      op: "delete",
      named: shop(ACME, { listing: [live(7, "1")] }),
      others: [shop(ALT, { listing: [live(9, "2", { hook: "shipment_status_change" })] })],
      declaredIn: [declaredFor(ALT)],
    },
    "ours at (default)",
  ],
  [
    "delete: ... under another key not listed yet: list it first",
    {
      op: "delete",
      named: shop(ACME, { listing: [live(7, "1")] }),
      others: [shop(ALT)],
      declaredIn: [declaredFor(ALT)],
    },
    "needListing alt@1",
  ],
  [
    "delete: ... under another key that lists nothing (it cannot say which shop it is): ours",
    {
      op: "delete",
      named: shop(ACME, { listing: [live(7, "1")] }),
      others: [shop(ALT, { listing: [] })],
      declaredIn: [declaredFor(ALT)],
    },
    "ours at (default)",
  ],
  [
    "delete: ... under another key that reports shop 1 of another account: ours",
    {
      op: "delete",
      recorded: IN_ACCOUNT_A,
      named: shop(ACME, { listing: [live(7, "1", { accountId: "a" })] }),
      others: [shop(ALT, { listing: [live(9, "1", { accountId: "b", hook: "shipment_status_change" })] })],
      declaredIn: [declaredFor(ALT)],
    },
    "ours at (default)",
  ],
  [
    "delete: the hook is declared for this shop, and the declaring create took the id: claimed",
    { op: "delete", named: shop(ACME), claimedAt: [API], declaredIn: [declaredFor(ACME)] },
    "claimed",
  ],
  [
    "delete: the hook is declared for this shop, and the recorded id is gone: gone",
    {
      op: "delete",
      named: shop(ACME, { listing: [live(9, "1", { hook: "shipment_status_change" })] }),
      declaredIn: [declaredFor(ACME)],
    },
    "gone",
  ],
  [
    "read: the hook is declared for this shop: ours (only a delete is held back)",
    { op: "read", named: shop(ACME, { listing: [live(7, "1")] }), declaredIn: [declaredFor(ACME)] },
    "ours at (default)",
  ],
  [
    "delete: the recorded id gone, the same hook and URL live as 9 (a late write): deletes 9",
    { op: "delete", named: shop(ACME, { listing: [live(9, "1")] }) },
    "ours at (default) as 9",
  ],
  [
    "delete: ... 9 created, adopted or kept by another resource of this deployment: gone, 9 left alone",
    { op: "delete", named: shop(ACME, { listing: [live(9, "1")] }), claimedLive: [9] },
    "gone",
  ],
  [
    "delete: the recorded id gone, the hook live as 9 at another URL: gone, 9 left alone",
    { op: "delete", named: shop(ACME, { listing: [live(9, "1", { url: "https://x.example.com" })] }) },
    "gone",
  ],
  [
    "diff: the recorded id gone, the same hook and URL live as 9: ours as 9, no drift",
    { op: "diff", named: shop(ACME, { listing: [live(9, "1")] }) },
    "ours at (default) as 9",
  ],
  [
    "diff: the recorded id gone, the same hook and URL as 9 held by another resource: drift, not taken",
    { op: "diff", named: shop(ACME, { listing: [live(9, "1")] }), claimedLive: [9] },
    "ours at (default), drifted",
  ],
  [
    "diff: the recorded id gone, the hook live as 9 at another URL: drift",
    { op: "diff", named: shop(ACME, { listing: [live(9, "1", { url: "https://x.example.com" })] }) },
    "ours at (default), drifted",
  ],
  [
    "replace: the recorded id gone, the same hook and URL live as 9: ours as 9",
    { op: "replace", named: shop(ACME, { listing: [live(9, "1")] }) },
    "ours at (default) as 9",
  ],
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
    "delete: recorded in shop 1 of account a, the key reaches shop 1 of account b: refuse",
    {
      op: "delete",
      recorded: IN_ACCOUNT_A,
      named: shop(ACME, { listing: [live(7, "1", { accountId: "b" })] }),
    },
    /^refuse: shipping:apiKey: the key of the default shop now reaches shop_id 1, but subscription 7/,
  ],
  [
    "delete: recorded in shop 1 of account a, listed there: ours",
    {
      op: "delete",
      recorded: IN_ACCOUNT_A,
      named: shop(ACME, { listing: [live(7, "1", { accountId: "a" })] }),
    },
    "ours at (default)",
  ],
  [
    "delete: pinned, the shop listed subscriptions at first and lists none now (this deployment deleted them): asks",
    { op: "delete", named: shop(PINNED, { listing: [], listedEmpty: false }) },
    "needGoneAnswer (default)@1",
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
    { op: "diff", named: shop(ACME, { listing: [live(8, "1", { hook: "shipment_status_change" })] }) },
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
    "diff: no shop recorded, listed as recorded: go on",
    {
      op: "diff",
      recorded: { ...RECORDED, shopId: undefined },
      named: shop(ACME, { listing: [live(7, undefined)] }),
    },
    "ours at (default)",
  ],
  [
    "diff: no shop recorded, the id not listed: go on, and say so (gone, or the key reaches another shop)",
    {
      op: "diff",
      recorded: { ...RECORDED, shopId: undefined },
      named: shop(ACME, { listing: [live(8, undefined)] }),
    },
    "ours at (default), drifted",
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
    "diff: recorded in shop 1 of account a, the key reaches shop 1 of account b: refuse",
    {
      op: "diff",
      recorded: IN_ACCOUNT_A,
      named: shop(ACME, { listing: [live(7, "1", { accountId: "b" })] }),
    },
    /^refuse: shipping:apiKey: the key of the default shop now reaches shop_id 1, but subscription 7/,
  ],
  [
    "diff: recorded in shop 1 of account a, listed there: ours",
    {
      op: "diff",
      recorded: IN_ACCOUNT_A,
      named: shop(ACME, { listing: [live(7, "1", { accountId: "a" })] }),
    },
    "ours at (default)",
  ],
  [
    "diff: pinned, the shop listed subscriptions at first and lists none now: it cannot say which it is",
    { op: "diff", named: shop(PINNED, { listing: [], listedEmpty: false }) },
    /^refuse: shipping:apiKey: .* now lists no subscription at all/,
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
    "replace: absent, the listing shows the shop (another hook)",
    { op: "replace", named: shop(ACME, { listing: [live(8, "1", { hook: "shipment_status_change" })] }) },
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
    const verdict = verdictOf(row);
    if (typeof expected === "string") expect(verdict).toBe(expected);
    else expect(verdict).toMatch(expected);
  });
});

/** The live subscriptions of the create table: the declared URL, another URL, and each as a preview's digest. */
const AT_URL = live(3, "1");
const ELSEWHERE = live(3, "1", { url: "https://erp.example.com" });
const ELSEWHERE_DIGEST = live(3, "1", { url: urlDigest("https://erp.example.com") });
const AT_URL_DIGEST = live(3, "1", { url: urlDigest(URL) });

/** Each row: what the create knows (the rest false, no live subscription), and the whole plan. */
const creates: Array<[string, Partial<CreateFacts>, CreatePlan]> = [
  ["no live subscription of the hook: POST", {}, { kind: "post" }],
  ["live with the declared URL: adopt, no write", { live: AT_URL }, { kind: "adopt", live: AT_URL }],
  [
    "live with another URL, made outside the stack (a partner, the back office): refuse, nothing written",
    { live: ELSEWHERE },
    { kind: "refuseTakeover", live: ELSEWHERE },
  ],
  [
    "live with another URL, made outside the stack, and takeOver: true: POST over it, said as a takeover",
    { live: ELSEWHERE, takeOver: true },
    { kind: "post", live: ELSEWHERE, takenOver: true },
  ],
  [
    "live with another URL that a resource of the stack records (a replacement, a moved hook): POST over it",
    { live: ELSEWHERE, liveRecorded: true },
    { kind: "post", live: ELSEWHERE },
  ],
  [
    "... and takeOver: true: POST over it, no takeover (it is the stack's own)",
    { live: ELSEWHERE, liveRecorded: true, takeOver: true },
    { kind: "post", live: ELSEWHERE },
  ],
  [
    "live with the declared URL, made outside the stack: adopt, with or without takeOver",
    { live: AT_URL, takeOver: true },
    { kind: "adopt", live: AT_URL },
  ],
  [
    "live with another URL as a preview's digest of it, made outside the stack: refuse",
    { live: ELSEWHERE_DIGEST },
    { kind: "refuseTakeover", live: ELSEWHERE_DIGEST },
  ],
  [
    "live with the declared URL as a preview's digest of it: adopt",
    { live: AT_URL_DIGEST },
    { kind: "adopt", live: AT_URL_DIGEST },
  ],
  ["the same hook twice in one batch: refuse", { duplicate: true }, { kind: "refuse" }],
  [
    "the same hook twice in one batch, live with the declared URL: refuse, adopting nothing",
    { duplicate: true, live: AT_URL },
    { kind: "refuse" },
  ],
  [
    "another key of the same shop created the hook this deployment: refuse",
    { createdByOtherKey: true },
    { kind: "refuse" },
  ],
  [
    "live and kept by another resource of the program: refuse, naming the kept subscription",
    { live: AT_URL, liveKept: true },
    { kind: "refuse", kept: AT_URL },
  ],
  [
    "live at another URL, kept by another resource, and takeOver: true: refuse, naming the kept subscription",
    { live: ELSEWHERE, liveKept: true, takeOver: true },
    { kind: "refuse", kept: ELSEWHERE },
  ],
];

describe("the ownership rule: a create", () => {
  it.each(creates)("%s", (_, facts, expected) => {
    const plan = planCreate({
      url: URL,
      duplicate: false,
      createdByOtherKey: false,
      liveKept: false,
      liveRecorded: false,
      takeOver: false,
      ...facts,
    });
    expect(plan).toStrictEqual(expected);
  });
});

describe("what the rule says of a subscription that took the recorded one's place", () => {
  const facts = (operation: "diff" | "read" | "delete") => ({
    operation,
    recorded: RECORDED,
    named: shop(ACME, { listing: [live(9, "1")] }),
    others: [],
    claimedAt: [],
  });
  it.each(["diff", "read", "delete"] as const)(
    "%s names both ids and the late write, not the back office",
    (op) => {
      const verdict = decideRecorded(facts(op));
      expect(verdict.kind === "ours" ? verdict.warning : "").toMatch(
        /^shipping: subscription 7 \(order_status_change\) of the default shop is gone, and the service holds order_status_change at the recorded URL as subscription 9 \(a write the service applied late/,
      );
      expect(verdict.kind === "ours" ? verdict.warning : "").not.toMatch(/back office/);
    },
  );
});

describe("what diff says when the hook is live under another id at another URL", () => {
  it("names both ids and every way it can happen, a late write of this stack included, and no URL", () => {
    const verdict = decideRecorded({
      operation: "diff",
      recorded: RECORDED,
      named: shop(ACME, { listing: [live(9, "1", { url: "https://old.example.com/o" })] }),
      others: [],
      claimedAt: [],
    });
    const warning = verdict.kind === "ours" ? verdict.warning : "";
    expect(warning).toBe(
      "shipping: subscription 7 (order_status_change) of the default shop is gone, and the service holds order_status_change as subscription 9 at another URL than this resource declared (changed in the back office or by another stack, or an older write of this stack that the service applied late, after its client gave up): to put the declared URL back, set `takeOver: true` on the resource and run `pulumi up --refresh` (the refresh drops this resource, and no resource of the stack records that subscription then); to keep the new URL, declare it",
    );
  });
});
