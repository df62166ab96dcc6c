import { WebhookSubscription } from "pulumi-shipping-webhooks";

/** The callback host of this example; any lowercase HTTPS URL works. */
const CALLBACK_BASE = "https://hooks.example.com/acme";

/** One shop's three hooks, declared in TypeScript (key and base URL from `shipping:*` config). */
export default async function program() {
  const shipments = new WebhookSubscription("shipment-status", {
    hook: "shipment_status_change",
    url: `${CALLBACK_BASE}/shipments`,
  });
  const labels = new WebhookSubscription("label-created", {
    hook: "shipment_label_created",
    url: `${CALLBACK_BASE}/labels`,
  });
  const orders = new WebhookSubscription("order-status", {
    hook: "order_status_change",
    url: `${CALLBACK_BASE}/orders`,
  });
  return {
    shipmentStatusId: shipments.subscriptionId,
    labelCreatedId: labels.subscriptionId,
    orderStatusId: orders.subscriptionId,
  };
}
