/**
 * The root program: one shop's three hooks, declared in stack config (`shipping-webhooks:hooks` in
 * Pulumi.yaml, overridable per stack). The same code as examples/from-config, run from `dist/index.js`.
 */
export * from "./examples/from-config";
