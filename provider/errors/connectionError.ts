import type { RedactedRequest } from "./requestInfo";
import { ShippingError } from "./shippingError";

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

  constructor(request: RedactedRequest, reason: string, code: string | undefined, options?: ErrorOptions) {
    super(`Request failed: ${request.method} ${request.url} — ${reason}${code ? ` (${code})` : ""}`, options);
    this.request = request;
    this.code = code;
  }
}
