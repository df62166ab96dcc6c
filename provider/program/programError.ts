import * as pulumi from "@pulumi/pulumi";

/**
 * An error that fails the Pulumi program's process with `message` alone. The Node.js host formats every
 * unhandled error with `util.inspect` (Pulumi 3.248's cmd/run, for its trace span), stack included, even a
 * `RunError`, whose stack it never shows; under ts-node that formatting maps each frame through source maps
 * and took 40 s of garbage collection for one failed `pulumi preview` (4 s with the stack set to the message).
 */
export function programError(message: string): pulumi.RunError {
  const error = new pulumi.RunError(message);
  error.stack = message;
  return error;
}
