#!/usr/bin/env node
/**
 * `pulumi-shipping-webhooks`: the adoption helper. Dynamic providers cannot `pulumi import`, so `export` prints
 * the declaration that adopts a shop's live subscriptions. Free of `@pulumi/pulumi` imports, so it starts fast.
 *
 * @module
 */
import { ShippingError } from "../errors/shippingError";
import { parseCommandLine, USAGE, UsageError } from "./args";
import { exportSubscriptions } from "./exportCommand";

/** Exit status of a configuration or API error. */
const EXIT_FAILURE = 1;
/** Exit status of a bad command line. */
const EXIT_USAGE = 2;

/** Where the command writes. */
interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

const PREFIX = "pulumi-shipping-webhooks";

/**
 * Runs the command line `argv` (without `node` and the script) in folder `cwd` and returns the exit status.
 * In a Pulumi project folder `export` runs the `pulumi` CLI there to read the stack.
 */
export async function main(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  io: CliIo,
  cwd: string = process.cwd(),
): Promise<number> {
  let command: ReturnType<typeof parseCommandLine>;
  try {
    command = parseCommandLine(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`${PREFIX}: ${error.message}\n\n${USAGE}`);
    return EXIT_USAGE;
  }
  if (command.kind === "help") {
    io.stdout(USAGE);
    return 0;
  }
  try {
    const result = await exportSubscriptions(command, { cwd, env });
    io.stdout(result.text);
    for (const note of result.notes) io.stderr(`${PREFIX}: note: ${note}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof ShippingError)) throw error;
    io.stderr(`${PREFIX}: ${error.message}\n`);
    return EXIT_FAILURE;
  }
}

if (require.main === module) {
  main(process.argv.slice(2), process.env, {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  }).then(
    (status) => {
      process.exitCode = status;
    },
    (error: unknown) => {
      process.stderr.write(
        `${PREFIX}: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exitCode = EXIT_FAILURE;
    },
  );
}
