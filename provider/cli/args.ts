/** Parsing of the `pulumi-shipping-webhooks` command line. No Pulumi import: the command must start fast. */
import { parseArgs } from "node:util";
import { validateBaseUrl } from "../client/shippingClient";
import { ShippingConfigError } from "../errors/configError";
import { shopNameSchema } from "../schemas";

/** The command name, as npm installs the bin. */
export const COMMAND = "pulumi-shipping-webhooks";

/** Default `--project`: the project name of examples/from-config, whose program reads `<project>:hooks`. */
export const DEFAULT_PROJECT = "from-config";

/** Usage text printed by `--help` and after a flag error. */
export const USAGE = `Usage: ${COMMAND} export [--shop <name>] [--format ts|yaml] [--base-url <url>] [--project <name>]

Lists a shop's live webhook subscriptions and prints the Pulumi declaration that adopts them
(dynamic providers cannot "pulumi import"): a TypeScript program, or stack config for a program
that reads "<project>:hooks" (as examples/from-config does). A later "pulumi up" of that declaration
takes the subscriptions over without writing to the API.

Options:
  --shop <name>        a shop of SHIPPING_SHOPS (JSON: {"<shop>": {"apiKey": "...", "baseUrl"?: "..."}});
                       absent: the default shop of SHIPPING_API_KEY
  --format ts|yaml     TypeScript program (default) or stack YAML (the config: block of Pulumi.<stack>.yaml)
  --base-url <url>     API base URL (default: the shop's baseUrl, else SHIPPING_BASE_URL)
  --project <name>     project name of the YAML keys (default ${DEFAULT_PROJECT})
  -h, --help           show this help

Environment: SHIPPING_API_KEY, SHIPPING_BASE_URL, SHIPPING_SHOPS, SHIPPING_AUTH_SCHEME,
SHIPPING_CA_CERTIFICATES, SHIPPING_TIMEOUTS, SHIPPING_RETRY (as the provider reads them).
Exit status: 0 printed, 1 configuration or API error, 2 bad command line.
`;

/** A command-line error; the CLI prints it with the usage and exits with status 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** Output formats of `export`. */
export type ExportFormat = "ts" | "yaml";

/** What the command line asks for. */
export type CliCommand =
  | { readonly kind: "help" }
  | {
      readonly kind: "export";
      readonly shop?: string;
      readonly format: ExportFormat;
      readonly baseUrl?: string;
      readonly project: string;
    };

const PROJECT_NAME = /^[A-Za-z0-9_.-]{1,100}$/;

/** Parses `argv` (without `node` and the script); throws {@link UsageError} for anything it does not know. */
export function parseCommandLine(argv: readonly string[]): CliCommand {
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions(argv);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return { kind: "help" };
  if (positionals.length === 0) throw new UsageError("missing command: the only command is export");
  if (positionals[0] !== "export" || positionals.length > 1) {
    throw new UsageError(`unknown command "${positionals.join(" ")}": the only command is export`);
  }
  const format = values.format ?? "ts";
  if (format !== "ts" && format !== "yaml") {
    throw new UsageError(`--format must be ts or yaml (got "${format}")`);
  }
  if (values.shop !== undefined && !shopNameSchema.safeParse(values.shop).success) {
    throw new UsageError(
      `--shop "${values.shop}" is not a shop name; use 1-63 lowercase letters, digits, "-" or "_"`,
    );
  }
  const project = values.project ?? DEFAULT_PROJECT;
  if (!PROJECT_NAME.test(project)) {
    throw new UsageError(
      `--project "${project}" is not a Pulumi project name (letters, digits, "-", "_", ".")`,
    );
  }
  const baseUrl = values["base-url"];
  if (baseUrl !== undefined) {
    try {
      validateBaseUrl(baseUrl, "--base-url");
    } catch (error) {
      if (error instanceof ShippingConfigError) throw new UsageError(error.message);
      throw error;
    }
  }
  return {
    kind: "export",
    format,
    project,
    ...(values.shop !== undefined ? { shop: values.shop } : {}),
    ...(baseUrl !== undefined ? { baseUrl } : {}),
  };
}

function parseOptions(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      shop: { type: "string" },
      format: { type: "string" },
      "base-url": { type: "string" },
      project: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
}
