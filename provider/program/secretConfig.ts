import * as pulumi from "@pulumi/pulumi";

/**
 * Whether the stack config value of `fullKey` (`shipping:apiKey`, `<project>:hooks`) was set as a secret;
 * undefined when this release of `@pulumi/pulumi` does not say. The SDK knows it (the engine hands the secret
 * keys to the program) through `pulumi.runtime.isConfigSecret`, which it marks internal, so it is looked up rather
 * than imported: a release without it does not break the program.
 */
export function isSecretConfig(fullKey: string): boolean | undefined {
  const lookup = (pulumi.runtime as { isConfigSecret?: unknown }).isConfigSecret;
  return typeof lookup === "function" ? Boolean(lookup(fullKey)) : undefined;
}
