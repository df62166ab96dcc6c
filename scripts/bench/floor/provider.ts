/**
 * The engine's floor (issue 15): a dynamic resource whose provider calls nothing and stores nothing but its
 * inputs. What it costs in time and state bytes is what the Pulumi engine and its dynamic-provider host cost
 * for this fleet, so the benchmark can show which part of a missed goal is the engine's. Not for use outside
 * the benchmark.
 */
import * as pulumi from "@pulumi/pulumi";

/**
 * The `__provider` of every floor resource: module text the dynamic-provider host loads as is (nothing is
 * serialized). `create` returns a fresh id and no outputs, `delete` does nothing; no API call, no config.
 */
const FLOOR_MODULE =
  'exports.handler=()=>({create:async()=>({id:require("crypto").randomUUID()}),delete:async()=>{}})';

/** The resource type of a {@link FloorWebhook}: its state entries are counted by the `Floor` suffix. */
const FLOOR_TYPE = "pulumi-nodejs:dynamic/bench:Floor";

/** Inputs of a {@link FloorWebhook}: the same names our `WebhookSubscription` declares. */
interface FloorWebhookArgs {
  readonly shop: pulumi.Input<string>;
  readonly hook: pulumi.Input<string>;
  readonly url: pulumi.Input<string>;
}

/** One hook of one shop, deployed through the {@link FLOOR_MODULE} provider (the engine's floor). */
export class FloorWebhook extends pulumi.CustomResource {
  constructor(name: string, args: FloorWebhookArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      FLOOR_TYPE,
      name,
      { __provider: FLOOR_MODULE, hook: args.hook, shop: args.shop, url: args.url },
      opts,
    );
  }
}
