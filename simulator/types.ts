/**
 * Types of the simulator's options, state and running handle, exported by the package's `./simulator` entry
 * (simulator/index.ts, with the events and delivery records of deliveryTypes.ts): renaming one breaks the
 * programs and tests that drive the simulator. What the API itself defines lives in `contract/`.
 */

import type { Hook } from "../contract/hooks";
import type { Delivery, Emitted, NotDelivered, SimEvent } from "./deliveryTypes";

/** A stored webhook subscription. */
export interface Subscription {
  /** Positive integer from one global counter; never reused (except after an explicit reset). */
  id: number;
  hook: Hook;
  /** The callback URL exactly as it was posted (https, lowercase). */
  url: string;
}

/** A shop and its API keys, as given in options or in a CLI seed file. */
export interface ShopSeed {
  name: string;
  keys: { readWrite: string[]; readOnly?: string[] };
}

/** Custom rate-limit settings: per key and per method, sliding window. */
export interface RateLimitSettings {
  windowMs: number;
  post: number;
  get: number;
  delete: number;
}

/** Behaviours the spec leaves open ("not shown"); settable at start and at run time. */
export interface Switches {
  /** Accepted scheme word in `Authorization`. Default "both". */
  authScheme: "basic" | "bearer" | "both";
  /** Success status of GET on subscriptions. Default 200. */
  getStatus: 200 | 201;
  /** What re-posting an existing hook does to its id. Default "new-id". */
  overwrite: "keep-id" | "new-id";
  /** Rate limiting. Default "off"; "production" = POST 30, GET 150, DELETE 30 per 300_000 ms per key. */
  rateLimit: "off" | "production" | RateLimitSettings;
  /** Whether a 429 carries `Retry-After` (seconds until a slot frees). Default false. */
  retryAfter: boolean;
  /**
   * Whether subscription requests must send `User-Agent: CustomApiCall/2` (the spec's API version header);
   * others get 400. Default false.
   */
  requireUserAgent: boolean;
  /**
   * GET and DELETE of an id list in which some ids are unknown to the shop: "subset" answers (or deletes) the
   * ones found and 404s only when none is; "404" answers 404 for the whole request and deletes nothing.
   * Default "subset".
   */
  partialIds: "subset" | "404";
  /**
   * DELETE of an id list holding another shop's id and an id that does not exist: "ownership" answers 403
   * deleteResourceOwnedByOthers first; "existence" answers 404 first when the unknown ids decide the request
   * (all unknown, or any under `partialIds: "404"`). The spec shows neither order. Default "ownership".
   */
  deleteCheckOrder: "ownership" | "existence";
  /** Whether listed subscriptions carry `shop_id` and `account_id` ("listed") or not ("omitted"). Default "listed". */
  shopFields: "listed" | "omitted";
  /** Attempts per delivery, the first included (1-10). Default 3. */
  deliveryAttempts: number;
  /** Wait before the second attempt, in milliseconds (0-60 000); it doubles for each later one. Default 1000. */
  deliveryBackoffMs: number;
  /**
   * Which answers count as a failed attempt (retried): "non-2xx" (any status outside 200-299) or "5xx" (only
   * 500-599). A timeout or a connection error is always a failure. Default "non-2xx".
   */
  deliveryFailure: "non-2xx" | "5xx";
  /** Time the receiver has to answer one attempt, in milliseconds (1-60 000). Default 5000. */
  deliveryTimeoutMs: number;
  /** Share of deliveries (0..1) sent a second time, spread evenly (0.5: the 1st, 3rd, 5th...). Default 0. */
  deliveryDuplicates: number;
  /** Whether a duplicate carries the delivery id of the first send ("same") or one of its own ("new"). Default "same". */
  duplicateDeliveryId: "same" | "new";
  /** Most events in one delivery, when several are sent at once (1-100). Default 10. */
  eventsPerDelivery: number;
  /** Whether each event in `data.hooks` carries an `event` key naming its hook. Default "omitted" (as production). */
  eventField: "omitted" | "included";
}

/**
 * Which requests a fault applies to, besides its `method`: `request` narrows it to the listing
 * (`/webhook_subscriptions/`) or to requests of an id list (`/webhook_subscriptions/1;2`), and `after` keeps it
 * dormant until a request of that method has arrived (for example `after: "POST"`: the listing before a write
 * passes, the read-back or the listing that confirms it fails).
 */
interface FaultMatch {
  method?: string;
  request?: "listing" | "ids";
  after?: string;
  count?: number;
}

/** A programmable fault applied to API requests (never to control endpoints). */
export type FaultSpec =
  | ({ kind: "latency"; ms: number } & FaultMatch)
  | ({ kind: "status"; status: number; rate?: number; retryAfterSeconds?: number } & FaultMatch)
  | ({ kind: "reset" } & FaultMatch)
  | ({ kind: "drop-after-write" } & FaultMatch)
  | ({ kind: "stall"; ms?: number } & FaultMatch)
  /**
   * Applies the request late, after its client has gone: the request is read as it arrives, held `ms` (and,
   * with `untilClientGone`, until its client closed the connection), then applied (state changed and
   * persisted) whether or not the client still waits. The client never gets the service's answer: with
   * `gatewayMs`, a 504 Gateway Timeout after that long (a gateway in front of a slow backend); without it,
   * nothing (the connection is closed when the write is applied).
   */
  | ({ kind: "late-apply"; ms: number; untilClientGone?: boolean; gatewayMs?: number } & FaultMatch);

/** One API request as the simulator saw it. */
export interface RequestLogEntry {
  seq: number;
  at: string;
  method: string;
  path: string;
  query: string;
  /** Lower-case names; `authorization` redacted as "<scheme> [REDACTED]". */
  headers: Record<string, string>;
  /** The scheme word the client sent, lower-case. */
  authScheme?: string;
  shop?: string;
  keyRole?: "read-write" | "read-only";
  /** 0 if the connection was reset, dropped or stalled (or no response was sent yet). */
  status: number;
  /** The client closed the connection before its request ended; no answer was sent (status 0). */
  aborted?: true;
  fault?: FaultSpec["kind"];
  /** Under a `late-apply` fault: the status the service gave the held request when it applied it (never sent). */
  appliedStatus?: number;
  /** Parsed JSON body of a POST (credentials scrubbed), when its JSON text fits the log (16 KiB). */
  body?: unknown;
  /** Size of the POST body received, in bytes. */
  bodyBytes?: number;
  /** True when the body was too long to log whole: `bodyPreview` holds its start instead of `body`. */
  bodyTruncated?: boolean;
  /** The first 4 KiB characters of the body's JSON text (credentials scrubbed), when truncated. */
  bodyPreview?: string;
}

/** Options of `startSimulator`. */
export interface SimulatorOptions {
  /** Default 0 (ephemeral); the CLI defaults to 4010. */
  port?: number;
  /** Default "127.0.0.1"; anything that is not a loopback address is refused. */
  host?: string;
  /**
   * Names (besides loopback) a request's Host may give, e.g. `["sim"]` when clients reach the simulator as
   * `http://sim:4010` (an /etc/hosts alias or a container's extra host). Any other Host is answered 403,
   * on every path (DNS rebinding). Default none.
   */
  allowedHosts?: string[];
  /** JSON persistence file; absent = in memory. */
  dataFile?: string;
  /** Default: DEFAULT_SHOPS. */
  shops?: ShopSeed[];
  switches?: Partial<Switches>;
  /** PEM of CA(s) trusted for HTTPS webhook deliveries besides Node's default (bundled roots, NODE_EXTRA_CA_CERTS). */
  deliveryCa?: string;
  /** Most entries the request log keeps (oldest dropped first), default 10_000. */
  requestLogLimit?: number;
  /** Time a request body may take to arrive, in milliseconds, before the answer is 408 (default 10 000). */
  bodyTimeoutMs?: number;
  /**
   * Bind `host` although it is not loopback (e.g. "0.0.0.0" in a container), and answer control requests
   * from other machines; the Host allowlist and the control endpoints' checks against web pages stay
   * (simulator/README.md "Binding another address"). Default false: loopback only.
   */
  expose?: boolean;
  /**
   * Time the request line and headers may take to arrive, in milliseconds, before the answer is 408 and the
   * connection is closed (default 10 000, at most 300 000; Node checks once a second, so the 408 may come up to 1 s later).
   */
  headersTimeoutMs?: number;
  /**
   * Most memory the request log holds, in bytes (strings charged two bytes per character), default 16 MiB,
   * at least 1 MiB; oldest entries are dropped first.
   */
  requestLogBytes?: number;
  /** Most memory the delivery log holds, in bytes (charged as the request log), default 16 MiB, at least 1 MiB. */
  deliveryLogBytes?: number;
  /** Time a streamed listing may wait for its reader to take more, in milliseconds, before it is cut (default 10 000). */
  listingTimeoutMs?: number;
  /** Called after every delivery attempt with its record (the CLI prints one line per attempt). */
  onDelivery?: (attempt: Delivery) => void;
}

/** A running simulator: its address, its state and its test hooks. */
export interface RunningSimulator {
  /** e.g. http://127.0.0.1:PORT (no trailing slash). */
  readonly baseUrl: string;
  close(): Promise<void>;
  /** The shop's subscriptions, sorted by id. */
  subscriptions(shop: string): Subscription[];
  state(): { nextId: number; shops: Record<string, Subscription[]> };
  /** API requests only (never control endpoints), oldest first. */
  requests(): RequestLogEntry[];
  clearRequests(): void;
  switches(): Switches;
  setSwitches(patch: Partial<Switches>): void;
  addFault(fault: FaultSpec): void;
  clearFaults(): void;
  /**
   * Subscriptions emptied; id counter, log, faults, deliveries and rate-limit windows cleared; shops and
   * switches kept. Resolves once the emptied state is saved (at once in memory); rejects when the save fails.
   */
  reset(): Promise<void>;
  /** The delivery log: one record per attempt, oldest first. */
  deliveries(): Delivery[];
  /** Send `event` to the shop's subscriber (retries and duplicates as the switches say); resolves when done. */
  emit(event: SimEvent): Promise<Emitted | NotDelivered>;
  /** Send a logged delivery again, with its id and body, to its URL (retries as the switches say). */
  resend(deliveryId: string): Promise<Emitted | NotDelivered>;
}
