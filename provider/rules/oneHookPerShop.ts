/**
 * "A shop has one subscription per hook" (the API overwrites per hook): who declares each hook of each shop,
 * asked one way everywhere. The program asks it of two resources under one shop name; check, of two resources,
 * of two shop names with one key and of a hook kept by `ignoreChanges`; a create, of two keys the service
 * reports as one shop; a batch, of two requests. Each refusal names both declarations and the way out (remove
 * one), never a URL or a key.
 */
import type { ShopTarget } from "../config/settings";
import { ShippingError } from "../errors/shippingError";
import { shopName } from "../refusals/wording";
import { PLUGIN_RESOURCE_TYPE } from "../resourceTypes";

/** The plugin's resource type token. */

/** The first declarer of each hook of each shop, in one deployment (or one program run). */
export class HookDeclarers {
  readonly #first = new Map<string, string>();

  /**
   * Records `declarer` as declaring `hook` in `shop`, unless another declarer did first: then returns that
   * other one. The same declarer again (the engine checks a resource twice for its replacement) is no second.
   */
  otherThan(shop: string, hook: string, declarer: string): string | undefined {
    const key = `${shop}\u0000${hook}`;
    const first = this.#first.get(key);
    if (first === undefined) this.#first.set(key, declarer);
    return first === declarer ? undefined : first;
  }
}

/**
 * Who declares a hook in the deployment's shared declarations when the check runs in the dynamic host, which is
 * not told which resource it checks (a URN stands there under the plugin). The TypeScript class's own check
 * refuses two of its resources; this refuses one of the class and one of the plugin.
 */
export const TYPESCRIPT_CLASS = "the package's TypeScript class";

/** Why a declaration, found at check, is the second of its hook for its shop. */
export type SecondDeclaration =
  /** Another resource (by URN) declares the hook for the same shop name. */
  | { readonly by: "resource"; readonly urn: string }
  /** A resource declares it under another shop name with the same API and key. */
  | { readonly by: "shopName"; readonly label: string }
  /** Another resource of this shop name declares it at another URL: one keeps its hook through `ignoreChanges`. */
  | { readonly by: "keptHook" };

/** The failure, on the resource's `hook`, of a second declaration found at check. */
export function secondDeclarationRefusal(
  second: SecondDeclaration,
  hook: string,
  target: ShopTarget,
  urn: string | undefined,
): string {
  switch (second.by) {
    case "resource":
      if (urn === undefined || second.urn === TYPESCRIPT_CLASS)
        return declaredByBothHosts(urn ?? second.urn, hook, target.label);
      return declaredByTwo(nameOf(urn), nameOf(second.urn), hook, target.label);
    case "shopName":
      return `${hook} is declared twice for one shop: another WebhookSubscription of this stack declares it for shop ${second.label}, which is the same shop as ${target.label} (the same API key at ${target.api}). A shop has one subscription per hook: remove one of the two declarations`;
    default:
      return `${hook} is declared twice for ${shopName(target.label)}: two resources of this stack declare it, one of them most likely keeping its recorded hook through \`ignoreChanges: ["hook"]\`. A shop has one subscription per hook: remove one of the two, or drop "hook" from that resource's ignoreChanges`;
  }
}

/** Two resources, by name, declare one hook for one shop name (said by the program and by check alike). */
export function declaredByTwo(name: string, other: string, hook: string, shop: string): string {
  return `WebhookSubscription "${name}" declares hook ${hook} for shop ${shop}, which WebhookSubscription "${other}" already declares. A shop has one subscription per hook: remove one of the two`;
}

/** One resource of the TypeScript class and one of the plugin (`pluginUrn`) declare one hook for one shop. */
function declaredByBothHosts(pluginUrn: string, hook: string, shop: string): string {
  return `hook ${hook} of shop ${shop} is declared twice: by a WebhookSubscription of ${TYPESCRIPT_CLASS} (the dynamic provider) and by the plugin's resource "${nameOf(pluginUrn)}" (${PLUGIN_RESOURCE_TYPE}). A shop has one subscription per hook: remove one of the two, or declare both through the plugin's resource`;
}

/** A create of a hook that another create of the deployment wrote into the same shop, as the service reports it. */
export function declaredTwice(target: ShopTarget, shopId: string | undefined, hook: string): ShippingError {
  return new ShippingError(
    `${hook} is declared twice for shop ${shopId ?? target.label} at ${target.api}: shop ${target.label} and another shop entry of this stack are the same shop (the service reports the same shop_id for both keys, or they have the same key). A shop has one subscription per hook: remove one of the two declarations`,
  );
}

/**
 * A create of a hook whose live subscription another resource of the program keeps as it is recorded: one of
 * them keeps its hook through `ignoreChanges: ["hook"]`, or the two are one shop under two keys.
 */
export function keptByAnother(
  target: ShopTarget,
  live: { readonly id: number; readonly hook: string },
): ShippingError {
  return new ShippingError(
    `${live.hook} is declared twice for ${shopName(target.label)}: another resource of this stack keeps subscription ${live.id} of it as recorded (most likely through \`ignoreChanges: ["hook"]\`, or the same shop under another key). A shop has one subscription per hook: remove one of the two, or drop "hook" from that resource's ignoreChanges`,
  );
}

/** A resource's name, from its URN. */
function nameOf(urn: string): string {
  return urn.slice(urn.lastIndexOf("::") + 2);
}
