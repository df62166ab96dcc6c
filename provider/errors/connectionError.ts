import { describeRequest, type RedactedRequest } from "./requestInfo";
import { ShippingError } from "./shippingError";

/** The way out of a request that got no answer. */
const CONNECTION_HINT =
  "hint: is the service up at that URL (shipping:baseUrl, or the shop's baseUrl in shipping:shops)? Run the command again once it answers";

/**
 * No usable response: the connection failed, was reset, or a timeout or the overall deadline passed
 * (after retries). The original error is the `cause`.
 */
export class ShippingConnectionError extends ShippingError {
  override name = "ShippingConnectionError";
  /** What was sent, Authorization redacted. */
  readonly request: RedactedRequest;
  /** undici's error code (for example `UND_ERR_HEADERS_TIMEOUT` or `ECONNRESET`), when there is one. */
  readonly code: string | undefined;
  /** What went wrong, without the request and the hint (for example `connect ECONNREFUSED 127.0.0.1:9`). */
  readonly reason: string;

  /** The message without its hint, for a message that gives its own way out. */
  readonly detail: string;

  constructor(request: RedactedRequest, reason: string, code: string | undefined, options?: ErrorOptions) {
    const detail = `Request failed: ${describeRequest(request)} — ${reason}${code ? ` (${code})` : ""}`;
    super(`${detail}. ${CONNECTION_HINT}`, options);
    this.detail = detail;
    this.request = request;
    this.code = code;
    this.reason = reason;
  }
}
