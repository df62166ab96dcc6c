/**
 * The words every refusal and warning of the provider (this folder) uses: how a shop, a setting and the
 * command that sets a key are named, and a request error's reason without its hint. A message names no URL
 * (any part of one may be a secret) and no key.
 */
import type { ShopTarget } from "../config/settings";
import { ShippingConnectionError } from "../errors/connectionError";
import { ShippingRequestError } from "../errors/requestError";

/** Where the safety model explains how to move a stack to another API, key or shop. */
export const MOVING = "docs/safety.md#re-pointing-a-stack";
/** Refresh and destroy run with the provider configuration of the last `up`, also one that failed. */
export const LAST_UP = "(refresh and destroy use the configuration of the last `up`)";

/** The setting of a shop's base URL or key: its entry's in `shipping:shops`, or the default shop's. */
export function settingOf(shop: string | undefined, part: "baseUrl" | "apiKey"): string {
  return shop === undefined ? `shipping:${part}` : `shipping:shops.${shop}.${part}`;
}

/** The setting that holds a target's key, for messages. */
export function keySetting(target: ShopTarget): string {
  return target.label === "(default)" ? "shipping:apiKey" : `shipping:shops.${target.label}.apiKey`;
}

/** The command that sets the shop's key, as secret config (`--path` for an entry of `shipping:shops`). */
export function setKeyCommand(target: ShopTarget): string {
  return target.label === "(default)"
    ? "pulumi config set --secret shipping:apiKey <key>"
    : `pulumi config set --secret --path '${keySetting(target)}' <key>`;
}

/** What went wrong, for a message that gives its own way out: a request error's text without its hint. */
export function reasonOf(error: unknown): string {
  if (error instanceof ShippingRequestError || error instanceof ShippingConnectionError) return error.detail;
  return error instanceof Error ? error.message : String(error);
}

/** A shop as a person names it: its entry of `shipping:shops`, or the default shop. */
export function shopName(label: string | undefined): string {
  return label === undefined || label === "(default)" ? "the default shop" : `shop ${label}`;
}

/** `text` with its first letter in upper case (a message that begins with a shop's name). */
export function upper(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A shop the service names: its configured name when one is known, and its `shop_id`. */
export function serviceShop(shopId: string | undefined, name: string | undefined): string {
  return name === undefined ? `shop_id ${shopId ?? "(unknown)"}` : `${shopName(name)} (shop_id ${shopId})`;
}
