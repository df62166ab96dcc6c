/**
 * The ownership rule for a create (the rest of the rule is ownership.ts): one hook per shop, a takeover
 * without a write when the live subscription already has the declared URL, and no overwrite of a subscription
 * that calls another URL and that no resource of the stack records, unless the resource opts in (`takeOver`).
 */
import type { LiveSubscription } from "../client/apiSchemas";
import { isListedUrl } from "./recorded";

/** What a create does with its hook in a shop, given the shop's listing and this deployment's declarations. */
export type CreatePlan =
  | { readonly kind: "adopt"; readonly live: LiveSubscription }
  /** `takenOver`: the POST overwrites a subscription no resource of the stack records (opted in). */
  | { readonly kind: "post"; readonly live?: LiveSubscription; readonly takenOver?: boolean }
  /** `kept`: the live subscription, which another resource of the program keeps as it is recorded. */
  | { readonly kind: "refuse"; readonly kept?: LiveSubscription }
  | { readonly kind: "refuseTakeover"; readonly live: LiveSubscription };

/** Whether the live subscription of a hook is one the stack does not record, and what the resource allows. */
interface TakeoverFacts {
  /** The declared URL. */
  readonly url: string;
  /** The shop's live subscription of the hook, if any (its URL may be a digest: previewListing.ts). */
  readonly live?: LiveSubscription;
  /** A resource of this stack records the live subscription (its own, replaced or kept; seen in this deployment). */
  readonly liveRecorded: boolean;
  /** The resource opts in to overwrite a subscription made outside the stack (`takeOver: true`). */
  readonly takeOver: boolean;
}

/**
 * What a create would do to the live subscription of its hook, by the takeover rule alone: nothing to take
 * ("none": no live subscription, or it already calls the declared URL), overwrite its own or the stack's
 * ("own"), overwrite one made outside the stack with the resource's opt-in ("takeOver"), or refuse ("refuse":
 * a partner's subscription is never overwritten by default).
 */
export function takeoverOf(facts: TakeoverFacts): "none" | "own" | "takeOver" | "refuse" {
  const { live } = facts;
  if (live === undefined || isListedUrl(live.url, facts.url)) return "none";
  if (facts.liveRecorded) return "own";
  return facts.takeOver ? "takeOver" : "refuse";
}

/** What a create knows when its batch runs, under the shop's write lane. */
export interface CreateFacts extends TakeoverFacts {
  /** Another create of the same batch has the same hook. */
  readonly duplicate: boolean;
  /** Another set of credentials created this hook in the same shop (as the service reports it) in this deployment. */
  readonly createdByOtherKey: boolean;
  /** A resource the program declares keeps the live subscription unchanged (the same shop under another key). */
  readonly liveKept: boolean;
}

/**
 * One hook per shop, and takeover without a write: a second declaration of the hook for the shop is refused;
 * a live subscription of the hook with the declared URL is adopted as it is; one that calls another URL is
 * overwritten when it is the stack's own or the resource opts in, else refused; anything else is POSTed.
 */
export function planCreate(facts: CreateFacts): CreatePlan {
  if (facts.duplicate || facts.createdByOtherKey) return { kind: "refuse" };
  const { live } = facts;
  if (live === undefined) return { kind: "post" };
  // Adopting what another resource keeps would make two resources record one subscription; overwriting it
  // would leave that resource recording a subscription that is gone.
  if (facts.liveKept) return { kind: "refuse", kept: live };
  switch (takeoverOf(facts)) {
    case "none":
      return { kind: "adopt", live };
    case "refuse":
      return { kind: "refuseTakeover", live };
    case "takeOver":
      return { kind: "post", live, takenOver: true };
    default:
      return { kind: "post", live };
  }
}
