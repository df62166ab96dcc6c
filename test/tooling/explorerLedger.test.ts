import { describe, expect, it } from "vitest";
import { Ledger, type LiveSub, type Snapshot, type StateRecord } from "../../scripts/explorer/ledger";

const SUB: LiveSub = {
  shop: "main/acme",
  id: 2,
  hook: "shipment_status_change",
  url: "https://hooks.example.com/plain/2",
};
const RECORD: StateRecord = {
  name: "sub-charlie",
  id: 2,
  hook: SUB.hook,
  url: SUB.url,
  retainOnDelete: false,
  protect: false,
};
const live: Snapshot = new Map([["main/acme", [SUB]]]);

/** A ledger in which stack one wrote SUB, then its state changed to `records` / `pendingDeletion`. */
function afterInterruptedReplacement(pendingDeletion: readonly StateRecord[]): Ledger {
  const ledger = new Ledger();
  ledger.recordStackChanges("one", new Set(["main/acme#shipment_status_change"]), [
    { shop: SUB.shop, hook: SUB.hook, after: SUB },
  ]);
  ledger.reconcileState("one", [], live, () => false, new Set(), pendingDeletion);
  return ledger;
}

describe("the explorer's ledger", () => {
  it("keeps a stack's claim on a subscription its state records only as pending deletion", () => {
    // A SIGKILLed `up` left the replaced resource in state with `delete: true`: the next `up` deletes it.
    const ledger = afterInterruptedReplacement([RECORD]);
    expect(
      ledger.recordStackChanges("one", new Set(), [{ shop: SUB.shop, hook: SUB.hook, before: SUB }]),
    ).toEqual([]);
  });

  it("drops the claim when the state records the subscription in no form, so a later delete is a violation", () => {
    const ledger = afterInterruptedReplacement([]);
    expect(
      ledger.recordStackChanges("one", new Set(), [{ shop: SUB.shop, hook: SUB.hook, before: SUB }]),
    ).toEqual([
      `stack one deleted main/acme id 2 shipment_status_change ${SUB.url}, which one wrote and one did not own`,
    ]);
  });
});
