import { ShippingError } from "./shippingError";

/**
 * A write the service took (it answered the subscription's id) that could not be confirmed: reading it back
 * failed. The dynamic-provider host hands `id` and `properties` to the engine as a resource that was created
 * but failed to initialize, so the state records it (a later `destroy` removes it, a later `up` confirms it)
 * and the run fails with this message: nothing the service wrote is left recorded nowhere.
 */
export class ShippingUnconfirmedWriteError extends ShippingError {
  override name = "ShippingUnconfirmedWriteError";
  /** The subscription id the service answered (the resource id). */
  readonly id: string;
  /** The resource's outputs as far as they are known. */
  readonly properties: Record<string, unknown>;
  /** Why it is not confirmed, for the engine's record of the failed initialization. */
  readonly reasons: string[];

  constructor(message: string, id: number, properties: Record<string, unknown>, options?: ErrorOptions) {
    super(message, options);
    this.id = String(id);
    this.properties = properties;
    this.reasons = [message];
  }
}
