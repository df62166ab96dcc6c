import { type ApiErrorDetail, describeRequest, type RedactedRequest, type ResponseInfo } from "./requestInfo";
import { ShippingError } from "./shippingError";

/** The API's 403 for deleting a subscription that belongs to another shop (observed in production). */
const OWNED_BY_OTHERS = "deleteResourceOwnedByOthers";

/** A hint for statuses whose fix is not obvious from the API's message. */
function hintFor(
  status: number,
  apiMessage: string | undefined,
  details: readonly ApiErrorDetail[],
): string | undefined {
  switch (status) {
    case 401:
      return "check the API key (shipping:apiKey, the shop's apiKey in shipping:shops, or SHIPPING_API_KEY) and the auth scheme word (shipping:authScheme: auto, bearer or basic)";
    case 403:
      return apiMessage?.includes(OWNED_BY_OTHERS)
        ? "the subscription belongs to another shop: check the resource's shop and that shop's key in shipping:shops"
        : "this key may read but not change subscriptions (a read-only key): run pulumi up and destroy with a read-write key (shipping:apiKey or SHIPPING_API_KEY, or the shop's apiKey in shipping:shops); a read-only key is enough for pulumi preview";
    case 422: {
      const fields = details.map((d) => d.message).filter((m): m is string => m !== undefined);
      return fields.length > 0 ? `invalid field: ${fields.join("; ")}` : "the request holds invalid data";
    }
    case 429:
      return "rate limited (the service allows 30 POST, 150 GET and 30 DELETE per 5 minutes per key); wait and run again";
    default:
      return status >= 500 ? "the service failed to answer; run the command again later" : undefined;
  }
}

/**
 * The API answered with an error status (or a 2xx body carrying `errors`). The message names the method,
 * the URL, the status, the API's own message and codes, and a hint.
 */
export class ShippingRequestError extends ShippingError {
  override name = "ShippingRequestError";
  /** HTTP status of the response. */
  readonly status: number;
  /** What was sent, Authorization redacted. */
  readonly request: RedactedRequest;
  /** What came back. */
  readonly response: ResponseInfo;
  /** The API's own message, when it sent one. */
  readonly apiMessage: string | undefined;
  /** The API's `errors` entries. */
  readonly details: readonly ApiErrorDetail[];
  /** The message without its hint, for a message that gives its own way out. */
  readonly detail: string;

  constructor(
    request: RedactedRequest,
    response: ResponseInfo,
    statusText: string,
    apiMessage: string | undefined,
    details: readonly ApiErrorDetail[],
    options?: ErrorOptions,
  ) {
    const codes = details.map((d) => d.code).filter((c): c is number => c !== undefined);
    const hint = hintFor(response.status, apiMessage, details);
    const parts = [
      `Request failed with status code ${response.status} ${statusText}: ${describeRequest(request)}`,
    ];
    if (apiMessage !== undefined) parts.push(`API says: ${apiMessage}`);
    if (codes.length > 0) parts.push(`codes: ${codes.join(", ")}`);
    const detail = parts.join(" — ");
    super(hint !== undefined ? `${detail} — hint: ${hint}` : detail, options);
    this.detail = detail;
    this.status = response.status;
    this.request = request;
    this.response = response;
    this.apiMessage = apiMessage;
    this.details = details;
  }

  /** Whether the service refused a DELETE because the subscription belongs to another shop. */
  get ownedByOthers(): boolean {
    return this.status === 403 && this.apiMessage?.includes(OWNED_BY_OTHERS) === true;
  }
}
