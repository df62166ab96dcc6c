/** The error body of every 4xx (and simulated 5xx) answer, in the production service's shape. */
import { randomBytes } from "node:crypto";
import { API_ERROR_CODES, type ErrorBody, type ErrorItem } from "../contract/wire";
import { MAX_ERROR_ITEMS, MAX_ERROR_MESSAGE_CHARS } from "./constants";

/** One entry of `errors[]`, and the error body: `{message, request_id, errors[]}` (`contract/wire.ts`). */
export type { ErrorBody, ErrorItem } from "../contract/wire";

/** Error codes. 10001-10003 and 3103 are production's; the others are the simulator's own choice. */
export const ERROR_CODES = {
  /** Unknown path, 405, 406, 413, 415, 429 and simulated 5xx: protocol-level, no specific code. */
  generic: 0,
  /** 400: malformed JSON body or id list (simulator's choice). */
  malformed: 10000,
  /** 422: invalid subscription (envelope, item shape, duplicate hook). Production code. */
  invalidSubscription: API_ERROR_CODES.invalidSubscription,
  /** 422: invalid url. Production code. */
  invalidUrl: API_ERROR_CODES.invalidUrl,
  /** 422: invalid hook. Production code. */
  invalidHook: API_ERROR_CODES.invalidHook,
  /** 404: subscription id not found (simulator's choice). */
  subscriptionNotFound: 10004,
  /** 401: missing or invalid Authorization header. Production code. */
  invalidAuthorization: API_ERROR_CODES.invalidAuthorization,
  /** 403: key not permitted for the action (simulator's choice, next to 3103). */
  permissionDenied: 3104,
} as const;

/** A failed API answer, thrown by handlers and turned into an error body by the server. */
export class ApiError extends Error {
  /** HTTP status. */
  readonly status: number;
  /** One or more error items (all with `status`). */
  readonly items: ErrorItem[];
  /** Extra response headers, e.g. `Allow` or `Retry-After`. */
  readonly headers: Record<string, string>;
  /** How many problems were found: `items` holds the first of them (at most MAX_ERROR_ITEMS are answered). */
  total: number;

  /** Build an error with one item, or several when `more` is given. */
  constructor(
    status: number,
    code: number,
    title: string,
    message: string,
    headers: Record<string, string> = {},
    more: ErrorItem[] = [],
  ) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.items = [{ status, code, title, message }, ...more];
    this.headers = headers;
    this.total = this.items.length;
  }

  /**
   * Build an error from several items sharing one status; `total` is how many problems there were when
   * `items` holds only the first of them (ErrorItems).
   */
  static many(status: number, items: ErrorItem[], total = items.length): ApiError {
    const [first, ...rest] = items;
    if (first === undefined) throw new Error("ApiError.many needs at least one item");
    const error = new ApiError(status, first.code, first.title, first.message, {}, rest);
    error.total = Math.max(total, error.items.length);
    return error;
  }
}

/**
 * The problems a validation finds: keeps the first MAX_ERROR_ITEMS and counts the rest, so validating a body
 * of 349,000 bad items holds 100 of them, not 349,000.
 */
export class ErrorItems {
  /** The first problems found, in order. */
  readonly items: ErrorItem[] = [];
  /** How many problems were found in all. */
  total = 0;

  /**
   * Whether the next problem is only counted: check it before building the item, so that a body of 349,000
   * bad items does not build (and allocate for) 700,000 messages to drop.
   */
  get full(): boolean {
    return this.items.length >= MAX_ERROR_ITEMS;
  }

  /** Note one problem: kept while not `full`, counted either way. */
  push(item: ErrorItem): void {
    this.total += 1;
    if (!this.full) this.items.push(item);
  }

  /** Count a problem without its item (when `full`). */
  skip(): void {
    this.total += 1;
  }
}

/** `message` cut to MAX_ERROR_MESSAGE_CHARS characters (ending with "..." when cut). */
function bounded(message: string): string {
  return message.length <= MAX_ERROR_MESSAGE_CHARS
    ? message
    : `${message.slice(0, MAX_ERROR_MESSAGE_CHARS - 3)}...`;
}

let requestCounter = 0;

/** A request id in production's style: `<unix seconds>.<hex>`. */
export function newRequestId(): string {
  requestCounter = (requestCounter + 1) % 0x1000000;
  const seconds = Math.floor(Date.now() / 1000);
  return `${seconds}.${randomBytes(4).toString("hex")}${requestCounter.toString(16).padStart(6, "0")}`;
}

/**
 * Render the error body; the top-level message joins the item messages and appends the request id. At most
 * MAX_ERROR_ITEMS items are answered, each message at most MAX_ERROR_MESSAGE_CHARS long; when there were more
 * (`total`), the message says how many were left out.
 */
export function errorBody(items: ErrorItem[], requestId: string, total = items.length): ErrorBody {
  const listed = items
    .slice(0, MAX_ERROR_ITEMS)
    .map((item) =>
      item.message.length > MAX_ERROR_MESSAGE_CHARS ? { ...item, message: bounded(item.message) } : item,
    );
  const left = Math.max(total, items.length) - listed.length;
  const more =
    left > 0
      ? `; and ${left} more problems not listed (${listed.length + left} in all; errors[] holds the first ${listed.length})`
      : "";
  const text = listed.map((item) => item.message).join("; ");
  return { message: `${text}${more} (request_id: ${requestId})`, request_id: requestId, errors: listed };
}

/** Parses a request body as JSON, or throws the 400 the API answers for malformed JSON. */
export function parseJsonBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ApiError(
      400,
      ERROR_CODES.malformed,
      "Malformed JSON",
      `the body is not valid JSON: ${(error as Error).message}`,
    );
  }
}

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Decodes a body as UTF-8, or throws the 400 the API answers for bytes that are not UTF-8 (never U+FFFD). */
export function decodeUtf8Body(bytes: Uint8Array): string {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    throw new ApiError(
      400,
      ERROR_CODES.malformed,
      "Malformed body",
      "the body is not valid UTF-8; send JSON encoded as UTF-8",
    );
  }
}
