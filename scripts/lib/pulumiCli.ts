import { homedir } from "node:os";
import { join } from "node:path";
import { PulumiCommand } from "@pulumi/pulumi/automation";

/** The Pulumi CLI version this project builds, tests and documents. */
export const PULUMI_CLI_VERSION = "3.248.0";

/** Environment variable that points at a CLI root (a folder holding `bin/pulumi`) other than the default. */
export const PULUMI_ROOT_ENV = "SHIPPING_PULUMI_ROOT";

/**
 * The folder whose `bin/` holds the Pulumi CLI and the dynamic-provider plugin: `$SHIPPING_PULUMI_ROOT`, else
 * `$PULUMI_HOME/versions/3.248.0` (PULUMI_HOME defaults to `~/.pulumi`), where scripts/install-pulumi.sh
 * puts it. Every tool and test finds the CLI through this function.
 */
export function pulumiCliRoot(env: NodeJS.ProcessEnv = process.env): string {
  const override = env[PULUMI_ROOT_ENV];
  if (override !== undefined && override !== "") return override;
  const home =
    env.PULUMI_HOME !== undefined && env.PULUMI_HOME !== "" ? env.PULUMI_HOME : join(homedir(), ".pulumi");
  return join(home, "versions", PULUMI_CLI_VERSION);
}

/** The CLI as the Automation API drives it; fails with the install command when it is missing. */
export async function pulumiCommand(env: NodeJS.ProcessEnv = process.env): Promise<PulumiCommand> {
  const root = pulumiCliRoot(env);
  try {
    return await PulumiCommand.get({ root });
  } catch (error) {
    throw new Error(
      `No usable Pulumi CLI ${PULUMI_CLI_VERSION} under ${root}: run scripts/install-pulumi.sh (or set ${PULUMI_ROOT_ENV}). ${String(error)}`,
      { cause: error },
    );
  }
}
