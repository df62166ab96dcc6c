/**
 * Asking the service whether a recorded subscription that the configured shop does not list is gone, when
 * the listing cannot say which shop the key reaches. The only question the API answers differently for
 * "gone" and "in another shop" is a DELETE: 404 for an id that does not exist, 403 deleteResourceOwnedByOthers
 * for another shop's (a GET answers 404 to both). The shop does not list the id, so the DELETE deletes nothing.
 */
import type { LiveSubscription } from "./client/apiSchemas";
import type { Deployment } from "./deployment";
import { ShippingRequestError } from "./errors/requestError";
import { IdBatcher } from "./idBatcher";
import type { ShopTarget } from "./settings";
import { cannotConfirmGone, ownedByAnotherShop, type RecordedPlace, shopIdentityOf } from "./targetChange";

/**
 * The answer for one id: `gone` (404), `elsewhere` (another shop's), `cannotAsk` (403 for another reason:
 * this key may not DELETE, such as a read-only key), `deleted` (it existed after all, although the shop's
 * listing did not show it).
 */
export type GoneAnswer = "gone" | "deleted" | "elsewhere" | "cannotAsk";

/** One DELETE per shop for the ids asked about together; the answer per id. */
export function askingWhetherGone(deployment: Deployment): IdBatcher<ShopTarget, GoneAnswer> {
  const ask = async (target: ShopTarget, ids: number[]): Promise<[number, GoneAnswer][]> => {
    const answer = (a: GoneAnswer) => ids.map((id): [number, GoneAnswer] => [id, a]);
    const oneByOne = async () => (await Promise.all(ids.map((id) => ask(target, [id])))).flat();
    try {
      await deployment.client(target).delete(ids);
    } catch (error) {
      if (!(error instanceof ShippingRequestError)) throw error;
      // A service may answer 404 for a whole list when one id is unknown, even if another is another
      // shop's (the spec shows neither order): only an id asked about alone is gone on a 404.
      if (error.status === 404) return ids.length > 1 ? oneByOne() : answer("gone");
      if (error.status !== 403) throw error;
      if (!error.ownedByOthers) return answer("cannotAsk");
      // One id of another shop refuses the whole request: ask again one by one to learn which.
      if (ids.length > 1) return oneByOne();
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

/** What asks: `delete` and `create` refuse what they cannot settle; `refresh` takes it for gone. */
export type QuestionPurpose = "refresh" | "delete" | "create";

/**
 * Settles whether a recorded subscription that the configured shop does not list is gone (or throws).
 * When the listing shows the recorded shop (its shop_id), or the shop listed the id earlier in this
 * deployment, absent means gone. When it cannot say which shop the key reaches (the shop lists nothing, or
 * the service reports no shop_id), the service is asked (see {@link askingWhetherGone}): 404 says gone; 403
 * deleteResourceOwnedByOthers says the key now reaches another shop: refuse. Any other 403 (a read-only key)
 * settles nothing: delete and create refuse (taking it for gone could orphan it, or write into another
 * shop); refresh takes it for gone with a warning, so that a drift check with a read-only key shows a
 * back-office delete (a refresh that saves state with such a key after a key swap forgets the subscription).
 */
export async function confirmGone(
  deployment: Deployment,
  questions: IdBatcher<ShopTarget, GoneAnswer>,
  target: ShopTarget,
  recorded: RecordedPlace,
  listing: readonly LiveSubscription[],
  purpose: QuestionPurpose,
): Promise<void> {
  if (recorded.shopId !== undefined && shopIdentityOf(listing) !== undefined) return;
  // Listed in this shop earlier in the deployment (a replacement's POST overwrote it since): gone.
  if (deployment.seenInShop(target, recorded.id)) return;
  const what = `shipping: subscription ${recorded.id} (${recorded.hook}) is not in shop ${target.label}'s listing`;
  switch (await deployment.goneAnswer(target, recorded.id, () => questions.load(target, recorded.id))) {
    case "elsewhere":
      throw ownedByAnotherShop(recorded, target);
    case "cannotAsk":
      if (purpose !== "refresh") throw cannotConfirmGone(recorded, target);
      // A drift check (`preview --refresh`) runs with a read-only key and must show a back-office delete.
      process.stderr.write(
        `${what}, which cannot say which shop its key reaches, and the service refused the DELETE that asks whether it is gone (403: this key may not DELETE): refresh takes it for gone. If the key now reaches another shop, the subscription stays there: refresh with a read-write key to tell\n`,
      );
      return;
    case "deleted":
      process.stderr.write(`${what} but existed: the DELETE that asked whether it was gone deleted it\n`);
      return;
    default:
      return;
  }
}
