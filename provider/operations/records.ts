/**
 * A resource's state as the provider reads and writes it: the outputs, and what they say of the recorded
 * subscription. What the engine stores must keep working across releases (state of 0.1 has no `api`).
 */
import type { ShopTarget } from "../config/settings";
import { ShippingError } from "../errors/shippingError";
import { ShippingUnconfirmedWriteError } from "../errors/unconfirmedWriteError";
import { unconfirmedWrite } from "../refusals/createOutcomes";
import type { Recorded } from "../rules/recorded";

/** Outputs of a WebhookSubscription as stored in state. */
export interface SubscriptionOutputs {
  hook: string;
  url: string;
  shop?: string;
  subscriptionId: number;
  /** The API that issued the id (canonical base URL, no credential): an id means something only there. */
  api: string;
  /** The shop the service says the subscription belongs to (`shop_id`), when it says so. */
  shopId?: string;
  /** The account the service says the subscription belongs to (`account_id`), when it says so. */
  accountId?: string;
  /** The subscription the hook had when this resource was created (taken over or overwritten). */
  previous?: { id: number; url: string };
  /**
   * The id of the subscription this resource's create overwrote with `takeOver: true`: made outside the stack
   * (no resource of it recorded it). A destroy deletes what replaced it; `previous` has what it called.
   */
  takenOver?: number;
  /**
   * Present while the write is not confirmed (its read-back failed): every id its POST wrote. The next `up`
   * confirms it; refresh and delete find the resource's among them by hook and URL.
   */
  unconfirmed?: number[];
}

function subscriptionIdOf(id: string): number {
  if (!/^\d{1,15}$/.test(id))
    throw new ShippingError(`"${id}" is not a subscription id (a positive integer)`);
  return Number(id);
}

function optionalString(value: unknown): string | undefined {
  return value === undefined || value === null ? undefined : String(value);
}

/** What state says about a resource's subscription (its id and outputs). */
export function recordedOf(id: string, props: Record<string, unknown>): Recorded {
  return {
    id: subscriptionIdOf(id),
    hook: String(props.hook),
    url: String(props.url),
    shop: typeof props.shop === "string" ? props.shop : undefined,
    api: typeof props.api === "string" ? props.api : undefined,
    shopId: optionalString(props.shopId),
    accountId: optionalString(props.accountId),
    ...(Array.isArray(props.unconfirmed) ? { written: props.unconfirmed.map(Number) } : {}),
  };
}

/**
 * The outputs of a create of `inputs` that wrote or adopted subscription `id` (`current`: the hook's before;
 * `takenOver`: the write overwrote it, made outside the stack, with the resource's opt-in).
 */
export function outputsOf(
  inputs: Record<string, unknown>,
  target: ShopTarget,
  id: number,
  current: { readonly id: number; readonly url: string } | undefined,
  takenOver = false,
): SubscriptionOutputs {
  return {
    hook: String(inputs.hook),
    url: String(inputs.url),
    ...(typeof inputs.shop === "string" ? { shop: inputs.shop } : {}),
    subscriptionId: id,
    api: target.api,
    ...(current !== undefined ? { previous: { id: current.id, url: current.url } } : {}),
    ...(current !== undefined && takenOver ? { takenOver: current.id } : {}),
  };
}

/** The outputs without the marker of an unconfirmed write (once it is confirmed). */
export function confirmedProps(props: Record<string, unknown>): Record<string, unknown> {
  const { unconfirmed: _written, ...confirmed } = props;
  return confirmed;
}

/**
 * The error that makes the engine record a subscription that was written but not read back (see
 * ShippingUnconfirmedWriteError), with every id its POST wrote.
 */
export function unconfirmedError(
  inputs: Record<string, unknown>,
  target: ShopTarget,
  outs: SubscriptionOutputs,
  written: readonly number[],
  cause: unknown,
): ShippingUnconfirmedWriteError {
  const message = unconfirmedWrite(target, outs.hook, outs.subscriptionId, written, cause);
  const properties = { __provider: inputs.__provider, ...outs, unconfirmed: [...written] };
  return new ShippingUnconfirmedWriteError(message, outs.subscriptionId, properties, { cause });
}
