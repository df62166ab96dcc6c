import { ShippingError } from "./shippingError";

/** Configuration is missing or invalid; the message names the setting and how to set it. */
export class ShippingConfigError extends ShippingError {
  override name = "ShippingConfigError";
  /** The setting at fault, for example `shipping:apiKey`. */
  readonly setting: string;

  constructor(setting: string, message: string, options?: ErrorOptions) {
    super(`${setting}: ${message}`, options);
    this.setting = setting;
  }
}
