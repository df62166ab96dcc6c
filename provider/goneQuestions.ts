/**
 * Asking the service whether a recorded subscription that the configured shop does not list is gone, when
 * the listing cannot say which shop the key reaches. The only question the API answers differently for
 * "gone" and "in another shop" is a DELETE: 404 for an id that does not exist, 403 deleteResourceOwnedByOthers
 * for another shop's (a GET answers 404 to both). The shop does not list the id, so the DELETE deletes nothing.
 */
import type { Deployment } from "./deployment";
import { ShippingRequestError } from "./errors/requestError";
import { IdBatcher } from "./idBatcher";
import type { ShopTarget } from "./settings";

/**
 * The answer for one id: `gone` (404), `elsewhere` (another shop's), `cannotAsk` (this key may not DELETE,
 * a read-only key), `deleted` (it existed after all, although the shop's listing did not show it).
 */
export type GoneAnswer = "gone" | "deleted" | "elsewhere" | "cannotAsk";

/** One DELETE per shop for the ids asked about together; the answer per id. */
export function askingWhetherGone(deployment: Deployment): IdBatcher<ShopTarget, GoneAnswer> {
  const ask = async (target: ShopTarget, ids: number[]): Promise<[number, GoneAnswer][]> => {
    const answer = (a: GoneAnswer) => ids.map((id): [number, GoneAnswer] => [id, a]);
    try {
      await deployment.client(target).delete(ids);
    } catch (error) {
      if (!(error instanceof ShippingRequestError)) throw error;
      if (error.status === 404) return answer("gone");
      if (error.status !== 403) throw error;
      if (!error.ownedByOthers) return answer("cannotAsk");
      // One id of another shop refuses the whole request: ask again one by one to learn which.
      if (ids.length > 1) return (await Promise.all(ids.map((id) => ask(target, [id])))).flat();
      return answer("elsewhere");
    }
    deployment.recordDelete(target, ids);
    return answer("deleted");
  };
  return new IdBatcher<ShopTarget, GoneAnswer>(
    (target) => target.shopKey,
    async (target, ids) => new Map(await ask(target, ids)),
  );
}
