/** Parsing of the `pulumi-shipping-webhooks` command line. No Pulumi import: the command must start fast. */
import { parseArgs } from "node:util";
import { validateBaseUrl } from "../client/shippingClient";
import { ShippingConfigError } from "../errors/configError";
import { shopNameSchema } from "../inputs/schemas";

/** The command name, as npm installs the bin. */
export const COMMAND = "pulumi-shipping-webhooks";

/** Default `--project`: the project name of examples/from-config, whose program reads `<project>:hooks`. */
export const DEFAULT_PROJECT = "from-config";

/** Usage text printed by `--help` and after a flag error. */
export const USAGE = `Usage: ${COMMAND} export [--stack <name>] [--shop <name>] [--format ts|yaml] [--base-url <url>] [--project <name>]

Lists a shop's live webhook subscriptions and prints the Pulumi declaration that adopts them
(dynamic providers cannot "pulumi import"): a TypeScript program, or stack config for a program
that reads "<project>:hooks" (as examples/from-config does). A later "pulumi up" of that declaration
takes the subscriptions over without writing to the API.

In a Pulumi project folder (a Pulumi.yaml here or above), it reads the selected stack, or --stack,
through the pulumi CLI: its config (then the environment, as the provider does) and the subscriptions
it records, which it leaves out. Add the program to the project's program:
  ${COMMAND} export --stack dev >> index.ts
Outside a project, or in one with no stack yet, it reads the environment only.

Options:
  --stack <name>       the stack whose config and state to read (default: the selected stack)
  --shop <name>        a shop of shipping:shops / SHIPPING_SHOPS ({"<shop>": {"apiKey": "...", "baseUrl"?: "..."}});
                       absent: the default shop of shipping:apiKey / SHIPPING_API_KEY
  --format ts|yaml     TypeScript program (default) or stack YAML (the config: block of Pulumi.<stack>.yaml)
  --base-url <url>     API base URL (default: the shop's baseUrl, else shipping:baseUrl / SHIPPING_BASE_URL)
  --project <name>     project name of the YAML keys (default: the project's name, else ${DEFAULT_PROJECT})
  -h, --help           show this help

Environment: SHIPPING_API_KEY, SHIPPING_BASE_URL, SHIPPING_SHOPS, SHIPPING_SHOP_ID, SHIPPING_AUTH_SCHEME,
SHIPPING_CA_CERTIFICATES, SHIPPING_TIMEOUTS, SHIPPING_RETRY (as the provider reads them, after stack config).
Exit status: 0 printed, 1 configuration, stack or API error, 2 bad command line.
`;

/** A command-line error; the CLI prints it with the usage and exits with status 2. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** Output formats of `export`. */
type ExportFormat = "ts" | "yaml";

/** What the command line asks for. */
export type CliCommand =
  | { readonly kind: "help" }
  | {
      readonly kind: "export";
      readonly shop?: string;
      readonly format: ExportFormat;
      readonly baseUrl?: string;
      /** `--project`; absent: the project's own name in a project folder, else {@link DEFAULT_PROJECT}. */
      readonly project?: string;
      /** `--stack`; absent: the selected stack of the project folder, if any. */
      readonly stack?: string;
    };

const PROJECT_NAME = /^[A-Za-z0-9_.-]{1,100}$/;
/** A stack name, optionally qualified as `<org>/<stack>` or `<org>/<project>/<stack>`. */
const STACK_NAME = /^[A-Za-z0-9_.-]{1,100}(\/[A-Za-z0-9_.-]{1,100}){0,2}$/;

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
  const { project, stack } = values;
  if (project !== undefined && !PROJECT_NAME.test(project)) {
    throw new UsageError(
      `--project "${project}" is not a Pulumi project name (letters, digits, "-", "_", ".")`,
    );
  }
  if (stack !== undefined && !STACK_NAME.test(stack)) {
    throw new UsageError(
      `--stack "${stack}" is not a stack name (letters, digits, "-", "_", "."; or <org>/<project>/<stack>)`,
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
    ...(project !== undefined ? { project } : {}),
    ...(stack !== undefined ? { stack } : {}),
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
      stack: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
}
