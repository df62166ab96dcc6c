#!/usr/bin/env node
/**
 * `shipping-api-sim`: run the simulator from the command line until SIGINT or SIGTERM, printing a line per
 * delivery attempt; or, as `trigger` / `resend`, drive a running one.
 */
import { parseCli, USAGE, UsageError } from "./cliArgs";
import { parseInspectCommand, runInspectCommand } from "./cliInspect";
import { parseClientCommand, runClientCommand } from "./cliTrigger";
import { CONTROL_PREFIX, DEFAULT_SHOPS } from "./constants";
import { formatAttempt } from "./deliveryFormat";
import { InvalidInputError } from "./schemas";
import { startSimulator } from "./simulator";

/** Exit status for command-line (usage) errors. */
const EXIT_USAGE = 2;
/** Exit status when the simulator cannot start (bad data file, port in use...). */
const EXIT_START_FAILED = 1;

function usageError(error: unknown): never {
  if (!(error instanceof UsageError)) throw error;
  process.stderr.write(`shipping-api-sim: ${error.message}\nRun "shipping-api-sim --help" for usage.\n`);
  process.exit(EXIT_USAGE);
}

/** What `parse` makes of the command line; a UsageError ends the process (EXIT_USAGE) with its message. */
function parsedOrExit<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    return usageError(error);
  }
}

/** Print one line of a client command on stdout. */
const printLine = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

async function main(argv: string[]): Promise<void> {
  const [first, ...rest] = argv;
  if (first === "trigger" || first === "resend") {
    const command = parsedOrExit(() => parseClientCommand(first, rest));
    process.exit(await runClientCommand(command, printLine));
  }
  if (first === "deliveries" || first === "switches") {
    const command = parsedOrExit(() => parseInspectCommand(first, rest));
    process.exit(await runInspectCommand(command, printLine));
  }
  const command = parsedOrExit(() => parseCli(argv));
  if (command.help) {
    process.stdout.write(USAGE);
    return;
  }
  const { options } = command;
  let sim: Awaited<ReturnType<typeof startSimulator>>;
  try {
    sim = await startSimulator({
      ...options,
      onDelivery: (attempt) => process.stdout.write(`delivery ${formatAttempt(attempt)}\n`),
    });
  } catch (error) {
    const status = error instanceof InvalidInputError ? EXIT_USAGE : EXIT_START_FAILED;
    process.stderr.write(`shipping-api-sim: ${(error as Error).message}\n`);
    process.exit(status);
  }
  const shop = (options.shops ?? DEFAULT_SHOPS)[0];
  const key = shop?.keys.readWrite[0] ?? "";
  // Handlers first: whoever reads the banner may signal at once.
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    sim.close().then(
      () => {
        process.stdout.write(`Stopped (${signal}).\n`);
        process.exit(0);
      },
      (error: unknown) => {
        process.stderr.write(`shipping-api-sim: error while stopping: ${String(error)}\n`);
        process.exit(EXIT_START_FAILED);
      },
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.stdout.write(
    `Shipping Service API simulator listening on ${sim.baseUrl}\n` +
      `Demo API key (shop ${shop?.name ?? "?"}): ${key}\n` +
      `  send: Authorization: bearer ${Buffer.from(key).toString("base64")}\n` +
      `State: ${options.dataFile ?? "in memory"}; control endpoints under ${sim.baseUrl}${CONTROL_PREFIX}\n` +
      (options.expose === true
        ? `Exposed on ${options.host ?? "?"}: anyone who reaches it may drive it, control endpoints included; Host must be loopback or ${[...(options.allowedHosts ?? [])].join(", ") || "(no --allow-host given)"}\n`
        : ""),
  );
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(
    `shipping-api-sim: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(EXIT_START_FAILED);
});
