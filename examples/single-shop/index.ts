import { WebhookSubscription } from "pulumi-shipping-webhooks";

// One shop's three hooks, declared in TypeScript; the key and base URL come from `shipping:*` stack config.
// Any lowercase HTTPS URL works as the callback.
const callbackBase = "https://hooks.example.com/acme";

const shipments = new WebhookSubscription("shipment-status", {
  hook: "shipment_status_change",
  url: `${callbackBase}/shipments`,
});
const labels = new WebhookSubscription("label-created", {
  hook: "shipment_label_created",
  url: `${callbackBase}/labels`,
});
const orders = new WebhookSubscription("order-status", {
  hook: "order_status_change",
  url: `${callbackBase}/orders`,
});

export const shipmentStatusId = shipments.subscriptionId;
export const labelCreatedId = labels.subscriptionId;
export const orderStatusId = orders.subscriptionId;
