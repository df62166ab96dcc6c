import { WebhookSubscription } from "pulumi-shipping-webhooks";

// One WebhookSubscription per hook the shop should call you for: order_status_change,
// shipment_status_change or shipment_label_created, each with an HTTPS, lowercase callback URL. A change of
// hook or URL replaces the subscription (the new one is made first, so the hook is never unsubscribed).
// `pulumi preview` shows what `pulumi up` will do.
const orders = new WebhookSubscription("orders", {
  hook: "order_status_change",
  url: "https://hooks.example.com/orders",
});

export const orderHookId = orders.subscriptionId;
