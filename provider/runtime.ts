/**
 * The provider as the dynamic-provider host loads it (the `./runtime` export, required by name from each
 * resource's `__provider`; see dynamicProvider.ts). One provider process serves one deployment: this module
 * binds the operations of one {@link ShippingProvider}.
 */
import { DeploymentClaims, deploymentOf } from "./facts/deploymentClaims";
import { SharedDeclarations } from "./facts/deploymentDeclarations";
import { ShippingProvider } from "./operations/provider";
import { QuietErrors } from "./operations/quietErrors";
import { libraryRunAsProgram } from "./program/runAsProgram";

// Run as the program (a Pulumi.yaml `main` naming this module), it would declare nothing and `up` would delete
// every subscription of the stack: it fails instead, as the package's main does. The dynamic-provider host
// requires it from each resource's provider module, never as the program. programError.ts (which loads
// @pulumi/pulumi) is required only then.
const ranAsProgram = libraryRunAsProgram(typeof module === "object" ? module : undefined);
if (ranAsProgram !== undefined) {
  const { programError } = require("./program/programError") as typeof import("./program/programError");
  throw programError(ranAsProgram);
}

export type { SubscriptionOutputs } from "./operations/records";

/** The operations the dynamic-provider host calls, bound to one provider (`delete` as `deleteSubscription`). */
export interface BoundProvider {
  readonly configure: ShippingProvider["configure"];
  readonly check: ShippingProvider["check"];
  readonly diff: ShippingProvider["diff"];
  readonly create: ShippingProvider["create"];
  readonly read: ShippingProvider["read"];
  readonly update: ShippingProvider["update"];
  readonly deleteSubscription: ShippingProvider["delete"];
}

/**
 * The operations of `provider`, bound, under the names this module exports. With `quiet`, the host does not
 * print again (with a stack) the errors of check, diff, read and delete, which the engine shows on the resource.
 */
export function bind(provider: ShippingProvider, quiet?: QuietErrors): BoundProvider {
  const host = <A extends unknown[], R>(operation: (...args: A) => Promise<R>) =>
    quiet === undefined ? operation : quiet.wrap(operation);
  return {
    configure: provider.configure.bind(provider),
    check: host(provider.check.bind(provider)),
    diff: host(provider.diff.bind(provider)),
    create: provider.create.bind(provider),
    read: host(provider.read.bind(provider)),
    update: provider.update.bind(provider),
    deleteSubscription: host(provider.delete.bind(provider)),
  };
}

// Claims and declarations are shared with the deployment's other provider processes (the plugin's, when a
// program uses both): a rename that moves a resource between them keeps its hook (deploymentDeclarations.ts).
const deployment = deploymentOf();
const process = bind(
  new ShippingProvider()
    .shareClaims(DeploymentClaims.ofProcess(deployment))
    .shareDeclarations(SharedDeclarations.ofProcess(deployment)),
  new QuietErrors(console),
);

/** Stores the stack configuration the engine hands over. */
export const configure = process.configure;
/** Validates a resource's inputs (see {@link ShippingProvider.check}). */
export const check = process.check;
/** Decides a resource's change (see {@link ShippingProvider.diff}). */
export const diff = process.diff;
/** Subscribes a hook (see {@link ShippingProvider.create}). */
export const create = process.create;
/** Refreshes a subscription (see {@link ShippingProvider.read}). */
export const read = process.read;
/** Confirms a write that was not read back (see {@link ShippingProvider.update}). */
export const update = process.update;
/** Unsubscribes a hook (see {@link ShippingProvider.delete}). */
export const deleteSubscription = process.deleteSubscription;
