/**
 * `node dist/scripts/ensurePulumiCli.js`: makes sure a Pulumi CLI fits (see findPulumiCli): an installed one
 * is used as it is; only when none fits is the project's CLI built by scripts/install-pulumi.sh. `npm test`
 * runs it first: it prints which Node.js runs the tests (and fails when it is outside package.json's
 * engines.node), then which CLI is used and why. The demo calls {@link ensurePulumiCli}.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describeNode } from "./lib/nodeEngines";
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

/** package.json's `engines.node`. */
function enginesNode(): string {
  const manifest = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as {
    engines?: { node?: string };
  };
  const range = manifest.engines?.node;
  if (range === undefined) throw new Error("package.json has no engines.node");
  return range;
}

if (require.main === module) {
  try {
    console.log(describeNode(process.version, process.execPath, enginesNode()));
    console.log(ensurePulumiCli().reason);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
