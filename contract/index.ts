/**
 * The Shipping Service API's contract: what the API itself defines, which the provider and the simulator both
 * import (and neither imports the other). The hooks, the callback URL rule, and the wire shapes.
 */
/** The rule a callback URL must follow, and why one is refused. */
export { callbackUrlRefusal, type UrlRefusal, type UrlRuleKind } from "./callbackUrl";
/** The three hooks. */
export { HOOKS, type Hook, isHook } from "./hooks";
/** Headers, envelopes, error codes and the error body. */
export {
  API_ERROR_CODES,
  type CreateSubscriptionsRequest,
  createResponseSchema,
  type ErrorBody,
  type ErrorItem,
  errorBodySchema,
  JSON_CONTENT_TYPE,
  listResponseSchema,
  liveSubscriptionSchema,
  type SubscriptionRequestItem,
  USER_AGENT,
} from "./wire";
