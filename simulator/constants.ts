/** Defaults and fixed values of the simulator, each with its unit. */
import type { Hook, RateLimitSettings, ShopSeed, Switches } from "./types";

/** Default listen port of `startSimulator` (0 = ephemeral). */
export const DEFAULT_PORT = 0;
/** Default listen port of the CLI. */
export const DEFAULT_CLI_PORT = 4010;
/** Default listen host; only loopback hosts are accepted. */
export const DEFAULT_HOST = "127.0.0.1";
/** Largest accepted request body, in bytes (1 MiB); larger bodies get 413. */
export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;
/** Past this many bytes an oversized body is no longer drained: 413 is sent and the connection closed. */
export const MAX_DRAIN_BYTES = 64 * 1024 * 1024;
/** Time a request body may take to arrive once the API reads it, in milliseconds; then the answer is 408. */
export const DEFAULT_BODY_TIMEOUT_MS = 10_000;
/** Time the request line and headers may take to arrive, in milliseconds; then the answer is 408. */
export const HEADERS_TIMEOUT_MS = 10_000;
/** How often Node checks connections for the headers timeout, in milliseconds. */
export const CONNECTIONS_CHECK_INTERVAL_MS = 1_000;
/** Default size of the request-log ring buffer, in entries. */
export const DEFAULT_REQUEST_LOG_LIMIT = 10_000;
/** Default bound of the request log's memory, in charged bytes (two per character of its strings). */
export const DEFAULT_REQUEST_LOG_BYTES = 16 * 1024 * 1024;
/** Smallest accepted `requestLogBytes`, in bytes: room for one entry with the largest headers and body. */
export const MIN_REQUEST_LOG_BYTES = 1024 * 1024;
/** A logged body whose JSON text is longer than this (characters) is kept as a preview only. */
export const LOG_BODY_MAX_CHARS = 16 * 1024;
/** Length of the preview of a body too long to log whole, in characters. */
export const LOG_BODY_PREVIEW_CHARS = 4 * 1024;
/** Bytes charged per log entry for its object and fixed fields. */
export const LOG_ENTRY_OVERHEAD_BYTES = 512;
/** Bytes charged per logged header for its property. */
export const LOG_HEADER_OVERHEAD_BYTES = 64;
/** Largest number of delivery records kept, in entries (oldest dropped first). */
export const DELIVERY_LOG_LIMIT = 10_000;
/** Timeout of one webhook delivery, in milliseconds. */
export const DELIVERY_TIMEOUT_MS = 5_000;
/** Longest delay a Node timer can hold, in milliseconds (2^31-1, about 24.8 days); longer ones fire at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;
/** Default duration of a "stall" fault before the socket is destroyed, in milliseconds. */
export const DEFAULT_STALL_MS = 120_000;
/** Title answered by `GET /`. */
export const SERVICE_TITLE = "Shipping Service API (simulator)";
/** Prefix of the control endpoints. */
export const CONTROL_PREFIX = "/__sim/";
/** Account id reported in listed subscriptions and notifications (the simulator has one account). */
export const SIM_ACCOUNT_ID = 1;
/** Version of the persisted state file format. */
export const STATE_FILE_VERSION = 1;

/** The three hooks, in the order they are listed in messages. */
export const HOOKS: readonly Hook[] = [
  "shipment_status_change",
  "shipment_label_created",
  "order_status_change",
];

/** Production's documented limits: per key, per method, 5-minute sliding window. */
export const PRODUCTION_RATE_LIMIT: Readonly<RateLimitSettings> = {
  windowMs: 300_000,
  post: 30,
  get: 150,
  delete: 30,
};

/** Default switches (see README for the reasoning behind each). */
export const DEFAULT_SWITCHES: Readonly<Switches> = {
  authScheme: "both",
  getStatus: 200,
  overwrite: "new-id",
  rateLimit: "off",
  retryAfter: false,
  requireUserAgent: false,
  partialIds: "subset",
  deleteCheckOrder: "ownership",
  shopFields: "listed",
};

/** The User-Agent product the spec requires on every subscription request (the API version). */
export const REQUIRED_USER_AGENT = "CustomApiCall/2";

/** Shops used when none are given: one shop "demo" with one read-write and one read-only key. */
export const DEFAULT_SHOPS: ShopSeed[] = [
  { name: "demo", keys: { readWrite: ["sim_demo_rw"], readOnly: ["sim_demo_ro"] } },
];
