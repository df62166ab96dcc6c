/** `export`: lists a shop's live subscriptions and renders the declaration that adopts them. */
import type { LiveSubscription } from "../client/apiSchemas";
import { ShippingClient, validateBaseUrl } from "../client/shippingClient";
import { shopIdentityOf } from "../ownership";
import { resolveShop } from "../settings";
import type { CliCommand } from "./args";
import { COMMAND } from "./args";
import { inventory, type RenderContext, renderStackYaml, renderTypeScript } from "./render";

/** The options of `export`, as parsed from the command line. */
export type ExportOptions = Extract<CliCommand, { kind: "export" }>;

/** What `export` produced: the declaration (stdout) and notes for the operator (stderr). */
export interface ExportResult {
  readonly text: string;
  readonly notes: readonly string[];
}

/**
 * Resolves the shop's API target from the environment exactly as the provider does without stack config
 * (so the same keys and error messages apply), lists its subscriptions and renders them. Throws the
 * provider's `ShippingError`s (configuration, HTTP).
 */
export async function exportSubscriptions(
  options: ExportOptions,
  env: NodeJS.ProcessEnv,
): Promise<ExportResult> {
  // --base-url stands in for SHIPPING_BASE_URL so that resolveShop does not ask for it, then wins over all.
  const target = resolveShop(options.shop, undefined, {
    ...env,
    ...(options.baseUrl !== undefined ? { SHIPPING_BASE_URL: options.baseUrl } : {}),
  });
  const baseUrl =
    options.baseUrl !== undefined ? validateBaseUrl(options.baseUrl, "--base-url") : target.baseUrl;
  const client = new ShippingClient({
    baseUrl,
    apiKey: target.apiKey,
    authScheme: target.authScheme,
    ...(target.timeouts !== undefined ? { timeouts: target.timeouts } : {}),
    ...(target.retry !== undefined ? { retry: target.retry } : {}),
    ...(target.caCertificates !== undefined ? { caCertificates: target.caCertificates } : {}),
  });
  let live: LiveSubscription[];
  try {
    live = await client.list();
  } finally {
    await client.close();
  }
  const items = inventory(live);
  const shopId = shopIdentityOf(live)?.shopId;
  const context: RenderContext = {
    command: commandLine(options),
    baseUrl,
    ...(options.shop !== undefined ? { shop: options.shop } : {}),
    ...(shopId !== undefined ? { shopId } : {}),
  };
  const text =
    options.format === "yaml"
      ? renderStackYaml(items, context, options.project)
      : renderTypeScript(items, context);
  const notes = items.skipped.map(
    ({ subscription: s, reason }) => `skipped subscription ${s.id} (${s.hook}): ${reason}`,
  );
  if (items.adoptable.some((a) => a.url.includes("?"))) {
    notes.push(
      "some callback URLs carry a query string (a token?): keep them out of the repository, for example as secret stack config",
    );
  }
  return { text, notes };
}

function commandLine(options: ExportOptions): string {
  const parts = [COMMAND, "export"];
  if (options.shop !== undefined) parts.push("--shop", options.shop);
  parts.push("--format", options.format);
  if (options.format === "yaml") parts.push("--project", options.project);
  return parts.join(" ");
}
