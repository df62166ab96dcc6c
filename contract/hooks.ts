/**
 * The event hooks of the Shipping Service API (spec section 2, Subscription.hook: "One of:
 * `shipment_status_change`, `shipment_label_created`, `order_status_change`"), in the order messages list them.
 */
export const HOOKS = ["shipment_status_change", "shipment_label_created", "order_status_change"] as const;

/** An event hook of the Shipping Service API; a shop has at most one subscription per hook. */
export type Hook = (typeof HOOKS)[number];

/** True when `value` is one of {@link HOOKS}. */
export function isHook(value: unknown): value is Hook {
  return typeof value === "string" && (HOOKS as readonly string[]).includes(value);
}
