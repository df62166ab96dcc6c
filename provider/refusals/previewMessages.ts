/**
 * What a preview says of a shop it could not list for its messages (program/previewChecks.ts): the key
 * refused, the API unreachable or not the Shipping API.
 */
import type { ShopTarget } from "../config/settings";
import { ShippingConnectionError } from "../errors/connectionError";
import { ShippingResponseError } from "../errors/responseError";
import { keySetting, reasonOf, setKeyCommand, shopName } from "./wording";

/**
 * A preview found a shop's key refused or its API unreachable: the resource cannot be deployed as
 * configured.
 */
export function shopUnusable(name: string, target: ShopTarget, error: unknown): string {
  const what = `WebhookSubscription "${name}": ${shopName(target.label)} at ${target.api}`;
  const status = (error as { status?: unknown }).status;
  const baseUrl = target.baseUrlSetting ?? "shipping:baseUrl";
  if (status === 401 || status === 403)
    return `${what}: the service refuses the key in ${keySetting(target)} (${status}). Set the shop's key: \`${setKeyCommand(target)}\``;
  if (error instanceof ShippingConnectionError)
    return `${what} cannot be reached (${error.reason}${error.code !== undefined ? ` (${error.code})` : ""}). Check ${baseUrl}, and that the service is up`;
  if (error instanceof ShippingResponseError)
    return `${what} answers, but not as the Shipping API does (${reasonOf(error)}). Check ${baseUrl}`;
  return `${what}: listing the shop failed (${reasonOf(error)}); run the preview again, and if it keeps failing check ${baseUrl}`;
}
