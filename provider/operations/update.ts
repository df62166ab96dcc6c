/**
 * `update`: confirms a subscription whose create was written but not read back (the only resource the engine
 * updates: every change of inputs replaces): no write, one listing of the shop. Still unconfirmed, it fails
 * again.
 */
import { ShippingUnconfirmedWriteError } from "../errors/unconfirmedWriteError";
import { stillUnconfirmed } from "../refusals/createOutcomes";
import { shopIdentityOf } from "../rules/recorded";
import type { Deployment } from "./deployment";
import { confirmedProps, recordedOf } from "./records";

/** The body of `ShippingProvider.update`. */
export async function confirmWrite(
  d: Deployment,
  id: string,
  olds: Record<string, unknown>,
): Promise<{ outs: Record<string, unknown> }> {
  const recorded = recordedOf(id, olds);
  const verdict = await d.settle("read", recorded, recorded.shop);
  if (verdict.kind === "refuse") throw verdict.error;
  if (verdict.kind === "ours" && verdict.live?.id === recorded.id) {
    return {
      outs: { ...confirmedProps(olds), api: verdict.target.api, ...shopIdentityOf([verdict.live]) },
    };
  }
  const why =
    verdict.kind === "ours"
      ? `the service holds ${recorded.hook} at this URL as subscription ${verdict.live?.id}`
      : `the service does not hold it as ${recorded.hook} at this URL`;
  throw new ShippingUnconfirmedWriteError(
    stillUnconfirmed(recorded.id, recorded.hook, why),
    recorded.id,
    olds,
  );
}
