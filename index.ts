/**
 * The root program: one shop's three hooks, declared in stack config (`shipping-webhooks:hooks` in
 * Pulumi.yaml, overridable per stack). The same code as examples/from-config.
 */
export { default } from "./examples/from-config";
