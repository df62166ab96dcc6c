/**
 * Shipping Service webhook subscriptions as Pulumi resources.
 *
 * @packageDocumentation
 */
import { refuseRunAsProgram } from "./program/programGuards";

// Before anything else loads: this module run as the program (a project folder without a package.json of
// its own, in a clone of the repository) fails the run instead of declaring nothing.
refuseRunAsProgram(typeof module === "object" ? module : undefined);

export type { LiveSubscription } from "./client/apiSchemas";
export { type AuthScheme, AuthSchemeMemory, type AuthSchemeSetting } from "./client/authScheme";
export { DEFAULT_TIMEOUTS, type Timeouts } from "./client/httpTransport";
export { DEFAULT_RETRY_SETTINGS, type RetrySettings } from "./client/retryPolicy";
export { type NewSubscription, ShippingClient, type ShippingClientOptions } from "./client/shippingClient";
export { SETTINGS } from "./config/settings";
export * from "./errors";
export { HOOKS, type Hook, isHook } from "./inputs/hooks";
export { callbackUrlProblem, type UrlProblemOptions } from "./inputs/schemas";
export { type DeclaredHook, hooksFromConfig } from "./program/hooksFromConfig";
export { ISOLATION_UNAVAILABLE, isolateInlineProgramConnections } from "./program/inlineProgramConnections";
export {
  type PreviousSubscription,
  WebhookSubscription,
  type WebhookSubscriptionArgs,
} from "./program/webhookSubscription";
