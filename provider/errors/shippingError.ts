/**
 * Base class of every error this package raises. Messages never contain the API key or the Authorization
 * header, raw or base64.
 */
export class ShippingError extends Error {
  override name = "ShippingError";
}
