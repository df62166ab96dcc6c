/**
 * The resource's type tokens under the two hosts: the dynamic provider's (what the TypeScript class registers)
 * and the provider plugin's (its schema.json). A stack records its subscriptions under either.
 */

/** The dynamic provider's resource, registered by the TypeScript class `WebhookSubscription`. */
export const DYNAMIC_RESOURCE_TYPE = "pulumi-nodejs:dynamic/shipping:WebhookSubscription";

/** The provider plugin's resource, declared by its type token from any language. */
export const PLUGIN_RESOURCE_TYPE = "shipping:index:WebhookSubscription";
