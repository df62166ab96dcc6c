/**
 * A preview's handed listing (previewListing.ts: URLs as digests, passed from the program to the provider)
 * decides exactly what the provider's own listing decides: for generated listings and recorded subscriptions,
 * the ownership rule's verdict (diff, read, delete, replace) is the same on both, and so is the takeover
 * rule's (a preview refuses exactly the creates that `up` refuses). Seeded and bounded.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HOOKS } from "../../contract/hooks";
import type { LiveSubscription } from "../../provider/client/apiSchemas";
import type { ShopTarget } from "../../provider/config/settings";
import { StackRecords } from "../../provider/facts/stackRecords";
import { handedListing, listingToHand } from "../../provider/inputs/previewListing";
import { planCreate } from "../../provider/rules/createRule";
import { decideRecorded } from "../../provider/rules/ownership";
import type { Operation } from "../../provider/rules/ownershipFacts";
import type { Recorded } from "../../provider/rules/recorded";

const API = "http://127.0.0.1:4010";
const TARGET: ShopTarget = {
  api: API,
  shopKey: `${API}#0123456789abcdef`,
  label: "(default)",
  baseUrl: API,
  apiKey: "key",
  authScheme: "auto",
};
const URLS = ["https://a.example.com/x", "https://a.example.com/y", "https://b.example.com/x?t=1"] as const;

const live: fc.Arbitrary<LiveSubscription> = fc.record(
  {
    id: fc.integer({ min: 1, max: 6 }),
    hook: fc.constantFrom(...HOOKS),
    url: fc.constantFrom(...URLS),
    shopId: fc.constantFrom("1", "2"),
    accountId: fc.constantFrom("8", "9"),
  },
  { requiredKeys: ["id", "hook", "url"] },
);
const recorded: fc.Arbitrary<Recorded> = fc.record(
  {
    id: fc.integer({ min: 1, max: 6 }),
    hook: fc.constantFrom(...HOOKS),
    url: fc.constantFrom(...URLS),
    shop: fc.constant(undefined),
    api: fc.constantFrom(API, undefined),
    shopId: fc.constantFrom("1", "2", undefined),
    accountId: fc.constantFrom("8", "9", undefined),
    written: fc.array(fc.integer({ min: 1, max: 6 }), { maxLength: 3 }),
  },
  { requiredKeys: ["id", "hook", "url", "shop", "api", "shopId", "accountId"] },
);
const operation = fc.constantFrom<Operation>("diff", "read", "delete", "replace");

/** The verdict's kind and, when it names one, the live subscription's id (what the provider acts on). */
function verdictOf(op: Operation, rec: Recorded, listing: readonly LiveSubscription[]) {
  const facts = { target: TARGET, listing, listedEmpty: listing.length === 0, seen: false };
  const verdict = decideRecorded({ operation: op, recorded: rec, named: facts, others: [], claimedAt: [] });
  const liveId = "live" in verdict ? verdict.live?.id : undefined;
  const warned = "warning" in verdict && verdict.warning !== undefined;
  const refusal = verdict.kind === "refuse" ? String(verdict.error) : undefined;
  return { kind: verdict.kind, liveId, warned, refusal };
}

describe("a handed listing decides as the provider's own", () => {
  it("the same verdict for every operation, listing and recorded subscription", () => {
    fc.assert(
      fc.property(fc.array(live, { maxLength: 5 }), recorded, operation, (listing, rec, op) => {
        const handed = handedListing(listingToHand(TARGET.shopKey, listing), TARGET);
        if (handed === undefined || !("listing" in handed))
          throw new Error("the handed listing was not taken");
        expect(handed.listing.map((s) => s.url)).not.toContain(rec.url);
        expect(verdictOf(op, rec, handed.listing)).toEqual(verdictOf(op, rec, listing));
      }),
      { numRuns: 5_000, seed: 2811 },
    );
  });

  it("the same takeover decision for every create, listing and set of what the stack records", () => {
    const declared = fc.record({ hook: fc.constantFrom(...HOOKS), url: fc.constantFrom(...URLS) });
    fc.assert(
      fc.property(
        fc.array(live, { maxLength: 5 }),
        declared,
        fc.array(declared, { maxLength: 3 }),
        fc.boolean(),
        (listing, create, stackHolds, takeOver) => {
          const records = new StackRecords();
          for (const sub of stackHolds) records.note(TARGET, sub);
          const plan = (subs: readonly LiveSubscription[]) => {
            const liveSub = subs.find((s) => s.hook === create.hook);
            return planCreate({
              url: create.url,
              ...(liveSub !== undefined ? { live: liveSub } : {}),
              duplicate: false,
              createdByOtherKey: false,
              liveKept: false,
              liveRecorded: liveSub !== undefined && records.holds(TARGET, liveSub),
              takeOver,
            });
          };
          const handed = handedListing(listingToHand(TARGET.shopKey, listing), TARGET);
          if (handed === undefined || !("listing" in handed))
            throw new Error("the handed listing was not taken");
          const onReal = plan(listing);
          expect(plan(handed.listing).kind).toBe(onReal.kind);
          // The promise itself: a POST over a live subscription at another URL is the stack's own or opted in.
          const over = listing.find((s) => s.hook === create.hook);
          if (onReal.kind === "post" && over !== undefined && over.url !== create.url)
            expect(takeOver || stackHolds.some((h) => h.hook === over.hook && h.url === over.url)).toBe(true);
        },
      ),
      { numRuns: 5_000, seed: 3411 },
    );
  });
});
