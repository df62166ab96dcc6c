/**
 * A read by id alone, as `pulumi import shipping:index:WebhookSubscription <name> <id>` asks it (no recorded
 * inputs or outputs): the live subscription's outputs and the inputs that declare it, so that the engine can
 * print the declaration and the next `up` finds nothing to change. The id is the subscription id of the
 * default shop, or `<shop>/<id>` for an entry of `shipping:shops`.
 */
import type { ShopTarget } from "../config/settings";
import { ShippingError } from "../errors/shippingError";
import type { ShopViews } from "../facts/shopViews";
import { shopName } from "../refusals/wording";

/** What an import reads: the resource id, its outputs and its inputs. */
interface Imported {
  readonly id: string;
  readonly props: Record<string, unknown>;
  readonly inputs: Record<string, unknown>;
}

/** The shop named by an import id (`<shop>/<id>`, or `<id>` for the default shop) and the subscription id. */
export function parseImportId(importId: string): { shop?: string; id: number } {
  const slash = importId.lastIndexOf("/");
  const shop = slash < 0 ? undefined : importId.slice(0, slash);
  const idText = importId.slice(slash + 1);
  if (!/^\d{1,15}$/.test(idText) || shop === "")
    throw new ShippingError(
      `"${importId}" is not a subscription to import: give the subscription id (a positive integer) of the default shop, or <shop>/<id> for an entry of shipping:shops`,
    );
  return { ...(shop === undefined ? {} : { shop }), id: Number(idText) };
}

/** Reads subscription `importId` for an import; a subscription the shop does not list is an error that says so. */
export async function importById(
  importId: string,
  targetOf: (shop: string | undefined) => ShopTarget,
  views: ShopViews,
): Promise<Imported> {
  const { shop, id } = parseImportId(importId);
  const target = targetOf(shop);
  const live = (await views.listing(target)).find((sub) => sub.id === id);
  if (live === undefined)
    throw new ShippingError(
      `subscription ${id} does not exist in ${shopName(target.label)} at ${target.api}: the service lists no subscription with that id there. Nothing was imported`,
    );
  const inputs = { hook: live.hook, url: live.url, ...(shop === undefined ? {} : { shop }) };
  const identity = {
    ...(live.shopId === undefined ? {} : { shopId: live.shopId }),
    ...(live.accountId === undefined ? {} : { accountId: live.accountId }),
  };
  return {
    id: String(id),
    props: { ...inputs, subscriptionId: id, api: target.api, ...identity },
    inputs,
  };
}
