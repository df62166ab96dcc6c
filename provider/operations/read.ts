/**
 * `read` (refresh, and `pulumi import`): the live subscription. It is this resource's only when id, hook, URL
 * and shop match; anything else (deleted, re-pointed by another stack or the back office) returns no id, so
 * refresh drops it and the next `up` subscribes the hook again.
 */
import { notOurs } from "../refusals/drift";
import { shopIdentityOf } from "../rules/recorded";
import type { Deployment } from "./deployment";
import { importById } from "./importById";
import { recordedOf } from "./records";
import { settled } from "./settle";
import { warn } from "./warnings";

/** The body of `ShippingProvider.read`. */
export async function readResource(
  d: Deployment,
  id: string,
  props: Record<string, unknown>,
): Promise<{ id?: string; props?: Record<string, unknown>; inputs?: Record<string, unknown> }> {
  // An import: the id alone (importById.ts).
  if (props.hook === undefined) return importById(id, (shop) => d.targetOf(shop), d.views);
  const recorded = recordedOf(id, props);
  const verdict = await d.settle("read", recorded, recorded.shop);
  if ("target" in verdict) d.records.note(verdict.target, recorded);
  switch (verdict.kind) {
    case "ours": {
      // An unconfirmed write is confirmed once read back: its id is the one that is this hook at this URL.
      const liveId = verdict.live?.id ?? recorded.id;
      const { unconfirmed: _written, ...kept } = props;
      const identity = shopIdentityOf(verdict.live ? [verdict.live] : []);
      return {
        id: String(liveId),
        props: { ...kept, subscriptionId: liveId, api: verdict.target.api, ...identity },
      };
    }
    case "taken":
      warn(
        notOurs(
          verdict.live.id,
          verdict.live.hook,
          "refresh treats it as gone; the next `pulumi up` puts the declared URL back only with `takeOver: true` on the resource, since no resource of the stack records that subscription then",
        ),
      );
      return {};
    case "gone":
      if (verdict.warning !== undefined) warn(verdict.warning);
      return {};
    default:
      throw settled(verdict);
  }
}
