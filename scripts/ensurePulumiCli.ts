/**
 * `node dist/scripts/ensurePulumiCli.js`: makes sure a Pulumi CLI fits (see findPulumiCli): an installed one
 * is used as it is; only when none fits is the project's CLI built by scripts/install-pulumi.sh. Prints
 * which CLI is used and why. `npm test` and the demo run it first.
 */
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import { findPulumiCli, PULUMI_CLI_VERSION, type PulumiCliChoice, requirePulumiCli } from "./lib/pulumiCli";

const REPO_ROOT = resolve(__dirname, "..", "..");

/** Returns the CLI to use, building {@link PULUMI_CLI_VERSION} first when no installed CLI fits. */
export function ensurePulumiCli(env: NodeJS.ProcessEnv = process.env): PulumiCliChoice {
  const lookup = findPulumiCli(env);
  if (lookup.found !== undefined) return lookup.found;
  console.log(
    `No installed Pulumi CLI fits (${lookup.rejected.join("; ")}): building ${PULUMI_CLI_VERSION}.`,
  );
  const install = spawnSync("bash", [join(REPO_ROOT, "scripts", "install-pulumi.sh")], {
    stdio: "inherit",
    env,
  });
  if (install.status !== 0) throw new Error("scripts/install-pulumi.sh failed; see its message above");
  return requirePulumiCli(env);
}

if (require.main === module) {
  try {
    console.log(ensurePulumiCli().reason);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
