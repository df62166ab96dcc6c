/** The shapes `export` works with: a shop's live subscriptions as it sorts them, and what it leaves out. */
import type { LiveSubscription } from "../client/apiSchemas";
import type { Hook } from "../inputs/hooks";

/** A live subscription that a declaration can adopt as it is. */
export interface Adoptable {
  readonly id: number;
  readonly hook: Hook;
  readonly url: string;
}

/** A live subscription that no declaration of this package version can adopt, and why. */
export interface Skipped {
  readonly subscription: LiveSubscription;
  readonly reason: string;
}

/** The live subscriptions of one shop, split into adoptable ones (in `HOOKS` order) and the rest. */
export interface Inventory {
  readonly adoptable: readonly Adoptable[];
  readonly skipped: readonly Skipped[];
}

/** A live subscription `export` does not declare because the stack has it already, and why. */
export interface LeftOut {
  readonly subscription: Adoptable;
  readonly reason: string;
}
