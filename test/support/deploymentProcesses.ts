/**
 * The provider processes of one deployment (the dynamic host, the plugin's default provider, an explicit one) as
 * real ShippingProvider objects that share the deployment's two files (claims, declarations) in a temp folder,
 * as runtime.ts and plugin/main.ts wire them: the engine's calls made in the order a test states.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { DeploymentClaims } from "../../provider/facts/deploymentClaims";
import { SharedDeclarations } from "../../provider/facts/deploymentDeclarations";
import { ShippingProvider } from "../../provider/operations/provider";

export type Inputs = Record<string, unknown>;

/** The folder of the importing test file's deployments, removed after its tests. */
let root: string | undefined;
afterAll(() => {
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
  root = undefined;
});
function deploymentsRoot(): string {
  root ??= mkdtempSync(join(tmpdir(), "deployment-processes-"));
  return root;
}

/** A deployment: a fresh pair of shared files; `process(config)` starts a provider process of it. */
export function deployment(): { process(config: Record<string, string>): Promise<ShippingProvider> } {
  const dir = mkdtempSync(join(deploymentsRoot(), "deployment-"));
  return {
    async process(config) {
      const provider = new ShippingProvider({})
        .shareClaims(new DeploymentClaims(join(dir, "d.claims")))
        .shareDeclarations(new SharedDeclarations(join(dir, "d.declarations"), "deployment-key"));
      await provider.configure({ config: { get: (key: string) => config[key] } });
      return provider;
    },
  };
}

/** The failures of a check, as `property: reason`. */
export async function checkFailures(
  provider: ShippingProvider,
  olds: Inputs,
  news: Inputs,
  urn?: string,
): Promise<{ inputs: Inputs; failures: string[] }> {
  const { inputs, failures } = await provider.check(olds, news, urn);
  return { inputs, failures: failures.map((f) => `${f.property}: ${f.reason}`) };
}
