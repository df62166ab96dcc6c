/** `export`: lists a shop's live subscriptions and renders the declaration that adopts them. */
import { relative } from "node:path";
import type { LiveSubscription } from "../client/apiSchemas";
import { ShippingClient, validateBaseUrl } from "../client/shippingClient";
import {
  type ConfigSource,
  configuredTargets,
  resolveShop,
  SETTINGS,
  type ShopTarget,
} from "../config/settings";
import { ShippingConfigError } from "../errors/configError";
import { shopName } from "../refusals/wording";
import { pinRefusal } from "../rules/ownershipFacts";
import { shopIdentityOf } from "../rules/recorded";
import type { CliCommand } from "./args";
import { COMMAND, DEFAULT_PROJECT } from "./args";
import type { Inventory, LeftOut } from "./inventory";
import { findProject, type PulumiProject } from "./project";
import { readProjectStack, type StackContext } from "./pulumiCli";
import { inventory, type RenderContext, renderStackYaml, renderTypeScript } from "./render";
import { leaveOutRecorded, redact, StackReadError } from "./stackState";

/** The options of `export`, as parsed from the command line. */
type ExportOptions = Extract<CliCommand, { kind: "export" }>;

/** What `export` produced: the declaration (stdout) and notes for the operator (stderr). */
interface ExportResult {
  readonly text: string;
  readonly notes: readonly string[];
}

/** Where `export` runs: its folder (a project is looked for from there) and its environment. */
interface ExportPlace {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
}

/** The project and stack `export` reads, or none (the environment only), with a note when it says why. */
async function readPlace(
  options: ExportOptions,
  place: ExportPlace,
): Promise<{ project?: PulumiProject; stack?: StackContext; notes: string[] }> {
  const project = findProject(place.cwd);
  if (project === undefined) {
    if (options.stack === undefined) return { notes: [] };
    throw new StackReadError(
      `--stack ${options.stack}: no Pulumi.yaml in ${place.cwd} or a folder above it, so there is no stack to read. Run export in the project's folder (where \`pulumi up\` runs), or leave out --stack to read the SHIPPING_* environment only`,
    );
  }
  const read = await readProjectStack(project, options.stack, place.cwd, place.env);
  if (read.kind === "noStack") return { project, notes: [read.note] };
  return { project, stack: read.context, notes: [] };
}

/** The shop's target from the stack's config, then the environment: exactly as the provider resolves it. */
function resolveTarget(options: ExportOptions, env: NodeJS.ProcessEnv, stack?: StackContext): ShopTarget {
  const config: ConfigSource | undefined = stack?.config.source;
  // --base-url stands in for SHIPPING_BASE_URL so that resolveShop does not ask for it, then wins over all.
  const withBase = {
    ...env,
    ...(options.baseUrl !== undefined ? { SHIPPING_BASE_URL: options.baseUrl } : {}),
  };
  try {
    return resolveShop(options.shop, config, withBase);
  } catch (error) {
    if (!(error instanceof ShippingConfigError)) throw error;
    const entries = configuredTargets(config, withBase).filter((t) => t.label !== "(default)");
    if (options.shop === undefined && error.setting === SETTINGS.apiKey.config && entries.length > 0) {
      const where = stack !== undefined ? `stack ${stack.stack}` : "the environment";
      throw new ShippingConfigError(
        SETTINGS.apiKey.config,
        `is not set in ${where}, so there is no default shop to export; name one of shipping:shops with --shop (${entries.map((t) => t.label).join(", ")}), for example \`export${stack !== undefined ? ` --stack ${stack.stack}` : ""} --shop ${entries[0]?.label}\``,
        { cause: error },
      );
    }
    if (stack === undefined) throw error;
    const said = error.message.slice(error.setting.length + 2);
    throw new ShippingConfigError(
      error.setting,
      `${said} (export read the config of stack ${stack.stack}, then the environment)`,
      { cause: error },
    );
  }
}

async function listShop(target: ShopTarget, baseUrl: string): Promise<LiveSubscription[]> {
  const client = new ShippingClient({
    baseUrl,
    shop: shopName(target.label),
    apiKey: target.apiKey,
    authScheme: target.authScheme,
    ...(target.timeouts !== undefined ? { timeouts: target.timeouts } : {}),
    ...(target.retry !== undefined ? { retry: target.retry } : {}),
    ...(target.caCertificates !== undefined ? { caCertificates: target.caCertificates } : {}),
  });
  try {
    return await client.list();
  } finally {
    await client.close();
  }
}

/**
 * Reads the stack of the project folder (`--stack`, else the selected one) through the `pulumi` CLI, or the
 * environment alone outside a project; resolves the shop as the provider does; lists its subscriptions;
 * leaves out those the stack has; renders the rest. Throws the provider's `ShippingError`s (configuration,
 * HTTP) and {@link StackReadError}.
 */
export async function exportSubscriptions(options: ExportOptions, place: ExportPlace): Promise<ExportResult> {
  const { project, stack, notes } = await readPlace(options, place);
  const target = resolveTarget(options, place.env, stack);
  const baseUrl =
    options.baseUrl !== undefined ? validateBaseUrl(options.baseUrl, "--base-url") : target.baseUrl;
  const live = await listShop(target, baseUrl);
  const refusal = pinRefusal({ target, listing: live, listedEmpty: live.length === 0, seen: false });
  if (refusal !== undefined) throw refusal;
  let items = inventory(live);
  let leftOut: readonly LeftOut[] = [];
  if (stack !== undefined) {
    const where = { api: target.api, ...(options.shop !== undefined ? { shop: options.shop } : {}) };
    ({ items, leftOut } = leaveOutRecorded(items, stack.records, where, stack.stack));
    items = withoutSecretUrls(items, stack.config.secrets, stack.stack);
  }
  const shopId = shopIdentityOf(live)?.shopId;
  const projectName = options.project ?? project?.name ?? DEFAULT_PROJECT;
  const context: RenderContext = {
    command: commandLine(options, projectName, stack?.stack),
    baseUrl,
    leftOut,
    ...(options.shop !== undefined ? { shop: options.shop } : {}),
    ...(shopId !== undefined ? { shopId } : {}),
    ...(target.pin !== undefined ? { pinned: target.pin.setting } : {}),
    ...(stack !== undefined ? { stack: stack.stack, taken: stack.records.map((r) => r.name) } : {}),
    ...(project?.importsWebhookSubscription === true
      ? { addTo: relative(project.dir, project.program) }
      : {}),
  };
  const text =
    options.format === "yaml"
      ? renderStackYaml(items, context, projectName)
      : renderTypeScript(items, context);
  notes.push(
    ...items.skipped.map(
      ({ subscription: s, reason }) => `skipped subscription ${s.id} (${s.hook}): ${reason}`,
    ),
  );
  if (
    stack !== undefined &&
    stack.records.length > 0 &&
    options.format === "ts" &&
    context.addTo === undefined
  ) {
    // `export > index.ts` empties the program before export reads it: what the stack records would go.
    notes.push(
      `stack ${stack.stack} records ${stack.records.length} WebhookSubscription(s), which this program does not declare: add it to the program that declares them (\`>> index.ts\`); in its place, \`pulumi up\` would delete them`,
    );
  }
  if (items.adoptable.some((a) => a.url.includes("?"))) {
    notes.push(
      "some callback URLs carry a query string (a token?): keep them out of the repository, for example as secret stack config",
    );
  }
  // Never a secret of the stack's config in what export prints, whatever line would carry it.
  const hide = (t: string) => (stack !== undefined ? redact(t, stack.config.secrets) : t);
  return { text: hide(text), notes: notes.map(hide) };
}

/**
 * Leaves out a subscription whose URL holds a secret of the stack's config (a token kept as secret stack config,
 * as examples/from-config does): printed, it would go into index.ts or the stack file in plain text.
 */
function withoutSecretUrls(items: Inventory, secrets: readonly string[], stack: string): Inventory {
  const secret = (url: string) => secrets.some((s) => url.includes(s));
  const reason = `its URL holds a secret of stack ${stack}'s config, which export never prints: declare it from that config (as examples/from-config does), and \`pulumi up\` adopts it with no write`;
  return {
    adoptable: items.adoptable.filter((a) => !secret(a.url)),
    skipped: [
      ...items.skipped,
      ...items.adoptable.filter((a) => secret(a.url)).map((a) => ({ subscription: a, reason })),
    ],
  };
}

function commandLine(options: ExportOptions, project: string, stack: string | undefined): string {
  const parts = [COMMAND, "export"];
  if (stack !== undefined) parts.push("--stack", stack);
  if (options.shop !== undefined) parts.push("--shop", options.shop);
  parts.push("--format", options.format);
  if (options.format === "yaml") parts.push("--project", project);
  return parts.join(" ");
}
