/**
 * The API's wire schemas, from the contract (`contract/wire.ts`), and the client's decoded form of a listed
 * subscription.
 */
export { createResponseSchema, errorBodySchema, listResponseSchema } from "../../contract/wire";

/** A subscription that exists on the service. `hook` stays a string so a hook added later is not fatal. */
export interface LiveSubscription {
  readonly id: number;
  readonly hook: string;
  readonly url: string;
  /** The shop the service says it belongs to (`shop_id`), when the service reports it. */
  readonly shopId?: string;
  /** The account the service says it belongs to (`account_id`), when the service reports it. */
  readonly accountId?: string;
}
