#!/usr/bin/env node
import { dirname, resolve } from "node:path";
import { parseArgs } from "node:util";
import { FleetFileError, readFleetFile } from "./fleet";
import { formatProgress, formatSummary } from "./progress";
import { FLEET_OPERATIONS, FleetConfigError, type FleetOperation, runFleet } from "./runner";

/** The command line's help text. */
const USAGE = `Usage: node dist/cli.js <up|preview|destroy|list> [options]

Runs one Pulumi operation on every stack (group of shops) of a fleet, a bounded number at once, and prints one
line per stack as it starts and ends, then a summary.

  --fleet <file>          the fleet description, YAML or .json (default: fleet.yaml)
  --concurrency <K>       stacks running at once (default: 4)
  --stack <name>          only this group; repeat it or separate names with commas (a CI matrix job)
  --parallel <P>          the engine's --parallel within each stack (default: the engine's)
  --refresh               refresh each stack before the operation
  --base-url <url>        API base URL of every shop, instead of the fleet file's (e.g. a local simulator)
  --backend <url>         state backend (default: PULUMI_BACKEND_URL; else Pulumi Cloud when
                          PULUMI_ACCESS_TOKEN is set; else file://<fleet file's folder>/.pulumi-state)
  --work-dir <dir>        the stacks' project folders and logs (default: .fleet beside the fleet file; must
                          be inside the project that installed pulumi-shipping-webhooks)
  --stack-timeout <min>   cancel a stack still running after this many minutes (default: 60)

list prints the group names as a JSON array (a CI matrix) and needs no key.

Environment: SHIPPING_SHOPS (JSON {"<shop>": {"apiKey": "...", "baseUrl"?: "..."}}; each stack gets only its
own shops' keys), PULUMI_CONFIG_PASSPHRASE (file or S3 state), SHIPPING_BASE_URL (when the fleet file has no
baseUrl), PULUMI_BACKEND_URL. The Pulumi CLI is the one on PATH.

Exit status: 0 every stack done; 1 a stack failed or was skipped; 2 bad command line, fleet file or environment.`;

/** The parsed command line. */
interface CliOptions {
  readonly command: FleetOperation | "list";
  readonly fleetFile: string;
  readonly concurrency: number;
  readonly only: string[];
  readonly parallel?: number;
  readonly refresh: boolean;
  readonly backend?: string;
  readonly baseUrl?: string;
  readonly workDir?: string;
  readonly stackTimeoutMinutes: number;
}

/** A command line that cannot be used; exit status 2. */
class UsageError extends Error {
  override readonly name = "UsageError";
}

function positiveInteger(flag: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1)
    throw new UsageError(`${flag} must be a whole number >= 1, got "${text}"`);
  return value;
}

/** Parses the arguments after `node cli.js`; throws {@link UsageError} naming the bad one. */
function parseCommandLine(argv: readonly string[]): CliOptions {
  let parsed: ReturnType<typeof parse>;
  function parse() {
    return parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        fleet: { type: "string" },
        concurrency: { type: "string" },
        stack: { type: "string", multiple: true },
        parallel: { type: "string" },
        refresh: { type: "boolean" },
        backend: { type: "string" },
        "base-url": { type: "string" },
        "work-dir": { type: "string" },
        "stack-timeout": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  }
  try {
    parsed = parse();
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  const command = positionals[0];
  if (values.help) throw new UsageError("");
  if (
    positionals.length !== 1 ||
    (command !== "list" && !FLEET_OPERATIONS.includes(command as FleetOperation))
  ) {
    throw new UsageError(
      `expected one command, up, preview, destroy or list; got "${positionals.join(" ")}"`,
    );
  }
  return {
    command: command as CliOptions["command"],
    fleetFile: resolve(values.fleet ?? "fleet.yaml"),
    concurrency: positiveInteger("--concurrency", values.concurrency, 4),
    only: (values.stack ?? [])
      .flatMap((s) => s.split(","))
      .map((s) => s.trim())
      .filter((s) => s !== ""),
    ...(values.parallel !== undefined ? { parallel: positiveInteger("--parallel", values.parallel, 1) } : {}),
    refresh: values.refresh ?? false,
    ...(values.backend !== undefined ? { backend: values.backend } : {}),
    ...(values["base-url"] !== undefined ? { baseUrl: values["base-url"] } : {}),
    ...(values["work-dir"] !== undefined ? { workDir: resolve(values["work-dir"]) } : {}),
    stackTimeoutMinutes: positiveInteger("--stack-timeout", values["stack-timeout"], 60),
  };
}

/** The backend URL the options and environment choose; undefined: the CLI's login (Pulumi Cloud). */
function backendFor(options: CliOptions, env: NodeJS.ProcessEnv): string | undefined {
  if (options.backend !== undefined) return options.backend;
  if (env.PULUMI_BACKEND_URL) return env.PULUMI_BACKEND_URL;
  if (env.PULUMI_ACCESS_TOKEN) return undefined;
  return `file://${resolve(dirname(options.fleetFile), ".pulumi-state")}`;
}

/** Runs the command line; resolves with the exit status. */
export async function main(argv: readonly string[]): Promise<number> {
  let options: CliOptions;
  try {
    options = parseCommandLine(argv);
  } catch (error) {
    const message = (error as Error).message;
    if (message === "") {
      console.log(USAGE);
      return 0;
    }
    console.error(`fleet: ${message}\n\n${USAGE}`);
    return 2;
  }
  const controller = new AbortController();
  const interrupt = () => {
    if (controller.signal.aborted) process.exit(130);
    console.error("fleet: interrupted; cancelling the running stacks (again to quit at once)");
    controller.abort();
  };
  try {
    const described = readFleetFile(options.fleetFile);
    const fleet = options.baseUrl !== undefined ? { ...described, baseUrl: options.baseUrl } : described;
    if (options.command === "list") {
      console.log(JSON.stringify(fleet.groups.map((g) => g.stack)));
      return 0;
    }
    process.on("SIGINT", interrupt);
    process.on("SIGTERM", interrupt);
    const backendUrl = backendFor(options, process.env);
    const result = await runFleet({
      fleet,
      operation: options.command,
      concurrency: options.concurrency,
      workRoot: options.workDir ?? resolve(dirname(options.fleetFile), ".fleet"),
      ...(backendUrl !== undefined ? { backendUrl } : {}),
      ...(options.only.length > 0 ? { only: options.only } : {}),
      ...(options.parallel !== undefined ? { parallel: options.parallel } : {}),
      refresh: options.refresh,
      stackTimeoutMs: options.stackTimeoutMinutes * 60_000,
      signal: controller.signal,
      onProgress: (event) => console.log(formatProgress(event)),
    });
    console.log(formatSummary(result));
    return result.failed.length > 0 ? 1 : 0;
  } catch (error) {
    if (error instanceof FleetFileError || error instanceof FleetConfigError) {
      console.error(`fleet: ${error.message}`);
      return 2;
    }
    throw error;
  } finally {
    process.off("SIGINT", interrupt);
    process.off("SIGTERM", interrupt);
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (status) => process.exit(status),
    (error: unknown) => {
      console.error(
        `fleet: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      process.exit(2);
    },
  );
}
