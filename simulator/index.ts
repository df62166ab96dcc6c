/**
 * Shipping Service API simulator: a faithful, persistent local stand-in for the webhook-subscription API.
 * Start one with `startSimulator()` (library) or the `shipping-api-sim` command. See simulator/README.md.
 */
/** Default shops, switches and production's rate limits. */

/** The three webhook hooks (the API's contract). */
export type { Hook } from "../contract/hooks";
export { DEFAULT_SHOPS, DEFAULT_SWITCHES, PRODUCTION_RATE_LIMIT } from "./constants";
/** The line the CLI prints for one delivery attempt. */
export { formatAttempt } from "./deliveryFormat";
/** Events and delivery records. */
export type {
  AttemptResult,
  AttemptSummary,
  Delivery,
  DeliverySend,
  Emitted,
  EmittedSummary,
  NotDelivered,
  PayloadOverrides,
  SimEvent,
} from "./deliveryTypes";
/** Error codes used in `errors[].code`. */
export { ERROR_CODES } from "./errors";
/** An active fault as listed by `GET /__sim/faults`. */
export type { ActiveFault } from "./faults";
/** Thrown by `startSimulator` for an unusable data file. */
export { SimulatorStateError } from "./persistence";
/** Thrown for invalid options, switches, faults, events or seeds. */
export { InvalidInputError } from "./schemas";
/** Start a simulator; check a host is loopback. */
export { isLoopbackHost, startSimulator } from "./simulator";
/** Options, switches, faults, the request log and the running simulator. */
export type {
  FaultSpec,
  RateLimitSettings,
  RequestLogEntry,
  RunningSimulator,
  ShopSeed,
  SimulatorOptions,
  Subscription,
  Switches,
} from "./types";
