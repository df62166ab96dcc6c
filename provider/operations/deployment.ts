/**
 * What the operations of one deployment share (operations/provider.ts builds it once per provider process):
 * the deployment's facts, its writes and create batches, how a shop name resolves and how the ownership rule
 * is settled.
 */
import type { ShopTarget } from "../config/settings";
import type { Claims } from "../facts/claims";
import type { Declarations } from "../facts/declarations";
import type { ShopViews } from "../facts/shopViews";
import type { StackRecords } from "../facts/stackRecords";
import type { Operation, Verdict } from "../rules/ownershipFacts";
import type { Recorded } from "../rules/recorded";
import type { CreateBatches } from "../writes/createBatch";
import type { Writes } from "../writes/writes";
import type { CheckContext } from "./check";

/** The facts, writes and batches of one deployment, as each operation's file reads them. */
export interface Deployment extends CheckContext {
  readonly views: ShopViews;
  readonly records: StackRecords;
  readonly declarations: Declarations;
  readonly claims: Claims;
  readonly writes: Writes;
  readonly creates: CreateBatches;
  /** The ownership rule's verdict about `recorded`, with the facts it asks for (settle.ts). */
  readonly settle: (
    operation: Operation,
    recorded: Recorded,
    named: ShopTarget | string | undefined,
  ) => Promise<Verdict>;
}
