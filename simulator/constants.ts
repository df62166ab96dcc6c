/** Defaults and fixed values of the simulator, each with its unit. */
import type { RateLimitSettings, ShopSeed, Switches } from "./types";

/** Default listen port of `startSimulator` (0 = ephemeral). */
export const DEFAULT_PORT = 0;
/** Default listen port of the CLI. */
export const DEFAULT_CLI_PORT = 4010;
/** Default listen host; only loopback hosts are accepted. */
export const DEFAULT_HOST = "127.0.0.1";
/** Largest accepted request body, in bytes (1 MiB); larger bodies get 413. */
export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;
/**
 * A POST body of at least this many characters that is valid JSON is checked from its text, one item at a
 * time, never built whole (jsonScan.ts): 349,000 `{}` items once held 349,000 objects per request at once.
 */
export const SCANNED_BODY_MIN_CHARS = 64 * 1024;
/**
 * Most items an error answer lists in `errors[]`; past it the message counts the rest, so an answer stays
 * bounded (about 100 x MAX_ERROR_MESSAGE_CHARS) whatever the request (a 1 MiB body can hold 349,000 items).
 */
export const MAX_ERROR_ITEMS = 100;
/** Longest message of one error item, in characters; a longer one is cut and ends with "...". */
export const MAX_ERROR_MESSAGE_CHARS = 1_000;
/** Past this many bytes an oversized body is no longer drained: 413 is sent and the connection closed. */
export const MAX_DRAIN_BYTES = 64 * 1024 * 1024;
/** Time a request body may take to arrive once the API reads it, in milliseconds; then the answer is 408. */
export const DEFAULT_BODY_TIMEOUT_MS = 10_000;
/** Default time the request line and headers may take to arrive, in milliseconds; then the answer is 408. */
export const HEADERS_TIMEOUT_MS = 10_000;
/** Longest `headersTimeoutMs`, in milliseconds: Node's `requestTimeout` (300 s), which it may not exceed. */
export const MAX_HEADERS_TIMEOUT_MS = 300_000;
/**
 * Time a connection is kept after its last answer (written straight on the socket) was sent, in milliseconds,
 * before the simulator closes it even if the client keeps its end open: closing at once could reset the
 * connection and discard the answer before the client read it.
 */
export const CLOSE_LINGER_MS = 1_000;
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
/** Default bound of the delivery log's memory, in charged bytes (two per character of its strings). */
export const DEFAULT_DELIVERY_LOG_BYTES = 16 * 1024 * 1024;
/** Bytes charged per delivery record for its object and fixed fields. */
export const DELIVERY_RECORD_OVERHEAD_BYTES = 1024;
/** Largest delivery body, in bytes of JSON text: an event (or a count of them) that would be larger is refused. */
export const MAX_DELIVERY_BODY_BYTES = 64 * 1024;
/** Largest sum of the delivery bodies one `emit` sends (its `count` of events), in bytes of JSON text. */
export const MAX_EMIT_BODY_BYTES = 256 * 1024;
/** Most shipment ids in one `shipment_label_created` event (one label batch). */
export const MAX_LABEL_SHIPMENT_IDS = 1_000;
/** Most events one `emit` sends (`count`). */
export const MAX_EVENT_COUNT = 100;
/** Most payload fields one event may set. */
export const MAX_OVERRIDES = 32;
/** Length of the receiver's answer kept in a delivery record, in bytes. */
export const RESPONSE_EXCERPT_BYTES = 1024;
/** Most attempts per delivery the `deliveryAttempts` switch allows. */
export const MAX_DELIVERY_ATTEMPTS = 10;
/** Longest `deliveryBackoffMs` and `deliveryTimeoutMs`, in milliseconds. */
export const MAX_DELIVERY_WAIT_MS = 60_000;
/** Most events per delivery the `eventsPerDelivery` switch allows. */
export const MAX_EVENTS_PER_DELIVERY = 100;
/** First shipment id the fixtures give out when an event names none. */
export const FIRST_FIXTURE_SHIPMENT_ID = 100_001;
/** Header naming the hook of a delivery (the simulator's guess: production's name is not shown). */
export const HOOK_HEADER = "x-shipping-hook";
/** Header carrying the delivery id (the simulator's guess). */
export const DELIVERY_ID_HEADER = "x-shipping-delivery-id";
/** Header carrying the base64 of the shop's API key, for the receiver to compare (the simulator's guess). */
export const API_KEY_HEADER = "x-shipping-api-key";
/** User-Agent of deliveries (the simulator's own). */
export const DELIVERY_USER_AGENT = "ShippingServiceSimulator/1";
/** Most listings (`GET /__sim/requests`, `/__sim/deliveries`) streamed at once; the next one gets 429. */
export const MAX_CONCURRENT_LISTINGS = 8;
/**
 * Most `POST /__sim/events` and `/__sim/resend` in progress at once (sending, then answering); the next gets
 * 429. Each holds its deliveries' bodies and attempt records until its answer is read.
 */
export const MAX_CONCURRENT_EMITS = 8;
/** Default time a listing may wait for its reader to take more, in milliseconds, before it is cut. */
export const DEFAULT_LISTING_TIMEOUT_MS = 10_000;
/** Longest delay a Node timer can hold, in milliseconds (2^31-1, about 24.8 days); longer ones fire at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;
/**
 * Most faults active at once: each API request walks them, and `POST /__sim/faults` answers the list, so an
 * unbounded list made both grow without end (and the POSTs quadratic).
 */
export const MAX_FAULTS = 100;
/** Default duration of a "stall" fault before the socket is destroyed, in milliseconds. */
export const DEFAULT_STALL_MS = 120_000;
/** Title answered by `GET /`. */
export const SERVICE_TITLE = "Shipping Service API (simulator)";
/** Prefix of the control endpoints. */
export const CONTROL_PREFIX = "/__sim/";
/** Whether `path` names a control endpoint: {@link CONTROL_PREFIX}, with or without its trailing slash, and below. */
export const isControlPath = (path: string): boolean =>
  path === CONTROL_PREFIX.slice(0, -1) || path.startsWith(CONTROL_PREFIX);
/** Account id reported in listed subscriptions and notifications (the simulator has one account). */
export const SIM_ACCOUNT_ID = 1;
/** Version of the persisted state file format. */
export const STATE_FILE_VERSION = 1;

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
  deliveryAttempts: 3,
  deliveryBackoffMs: 1_000,
  deliveryFailure: "non-2xx",
  deliveryTimeoutMs: 5_000,
  deliveryDuplicates: 0,
  duplicateDeliveryId: "same",
  eventsPerDelivery: 10,
  eventField: "omitted",
};

/** The User-Agent product the spec requires on every subscription request (the API version). */
export { USER_AGENT as REQUIRED_USER_AGENT } from "../contract/wire";

/** Shops used when none are given: one shop "demo" with one read-write and one read-only key. */
export const DEFAULT_SHOPS: ShopSeed[] = [
  { name: "demo", keys: { readWrite: ["sim_demo_rw"], readOnly: ["sim_demo_ro"] } },
];
