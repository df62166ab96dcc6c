/**
 * `delete`: deletes the subscription unless it is gone already or no longer this resource's: when a create in
 * this deployment wrote or adopted the same id (a replacement), or when the live subscription has another
 * hook, URL or shop than recorded (re-pointed since, by a newer declaration, another stack or the back
 * office). The DELETE itself is queued in the shop's batch (`Writes.delete`, provider/writes/writes.ts).
 */
import { notOurs } from "../refusals/drift";
import type { Deployment } from "./deployment";
import { recordedOf } from "./records";
import { settled } from "./settle";
import { warn } from "./warnings";

/** The body of `ShippingProvider.delete`. */
export async function deleteResource(
  d: Deployment,
  id: string,
  props: Record<string, unknown>,
): Promise<void> {
  const recorded = recordedOf(id, props);
  const verdict = await d.settle("delete", recorded, recorded.shop);
  switch (verdict.kind) {
    case "ours":
      return d.writes.delete(verdict.target, { ...recorded, id: verdict.live?.id ?? recorded.id });
    case "taken":
      return warn(
        notOurs(verdict.live.id, verdict.live.hook, "not deleting it, it belongs to a newer declaration"),
      );
    case "gone":
      return verdict.warning !== undefined ? warn(verdict.warning) : undefined;
    case "claimed":
      return;
    default:
      throw settled(verdict);
  }
}
