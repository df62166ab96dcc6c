/**
 * The ownership rule for a create (the rest of the rule is ownership.ts): one hook per shop, and a takeover
 * without a write when the live subscription already has the declared URL.
 */
import type { LiveSubscription } from "./client/apiSchemas";

/** What a create does with its hook in a shop, given the shop's listing and this deployment's declarations. */
export type CreatePlan =
  | { readonly kind: "adopt"; readonly live: LiveSubscription }
  | { readonly kind: "post"; readonly live?: LiveSubscription }
  | { readonly kind: "refuse" };

/** What a create knows when its batch runs, under the shop's write lane. */
export interface CreateFacts {
  readonly url: string;
  /** The shop's live subscription of the hook, if any. */
  readonly live?: LiveSubscription;
  /** Another create of the same batch has the same hook. */
  readonly duplicate: boolean;
  /** Another set of credentials created this hook in the same shop (as the service reports it) in this deployment. */
  readonly createdByOtherKey: boolean;
  /** A resource the program declares keeps the live subscription unchanged (the same shop under another key). */
  readonly liveKept: boolean;
}

/**
 * One hook per shop, and takeover without a write: a second declaration of the hook for the shop is refused;
 * a live subscription of the hook with the declared URL is adopted as it is; anything else is POSTed.
 */
export function planCreate(facts: CreateFacts): CreatePlan {
  if (facts.duplicate || facts.createdByOtherKey) return { kind: "refuse" };
  if (facts.live === undefined) return { kind: "post" };
  // Adopting what another resource keeps would make two resources record one subscription; overwriting it
  // would leave that resource recording a subscription that is gone.
  if (facts.liveKept) return { kind: "refuse" };
  if (facts.live.url === facts.url) return { kind: "adopt", live: facts.live };
  return { kind: "post", live: facts.live };
}
