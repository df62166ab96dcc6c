import { describeRequest, type RedactedRequest, type ResponseInfo } from "./requestInfo";
import { ShippingError } from "./shippingError";

/** The API answered with a success status, but the body is not what the spec describes. */
export class ShippingResponseError extends ShippingError {
  override name = "ShippingResponseError";
  /** What was sent, Authorization redacted. */
  readonly request: RedactedRequest;
  /** What came back. */
  readonly response: ResponseInfo;

  constructor(request: RedactedRequest, response: ResponseInfo, problem: string, options?: ErrorOptions) {
    super(
      `Unexpected response body with status code ${response.status}: ${describeRequest(request)} — ${problem}`,
      options,
    );
    this.request = request;
    this.response = response;
  }
}
