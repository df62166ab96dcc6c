/**
 * Project folders whose TypeScript program uses the provider plugin `pulumi-resource-shipping` (the package's
 * `bin`, installed from its tarball as a user installs it), named in Pulumi.yaml by folder as `plugins:
 * providers:`, through the official CLI against a simulator.
 */
import { join, relative } from "node:path";
import type { RunningSimulator } from "../../simulator";
import { installedPackages } from "../support/install";
import { OfficialProject, typescriptProjectFiles } from "../support/officialProject";
import { ACME_KEY } from "../support/shops";

/** The plugin's resource type token. */
export const PLUGIN_TYPE = "shipping:index:WebhookSubscription";
/** The dynamic resource's type token (what `pulumi-shipping-webhooks`'s class registers). */
export const DYNAMIC_TYPE = "pulumi-nodejs:dynamic/shipping:WebhookSubscription";

/**
 * A program's WebhookSubscription declared by type token, as a program of any language does: the plugin's
 * resource with no class of this package (`extra`: more resource options, as source text).
 */
export function pluginResource(name: string, args: string, extra = ""): string {
  return `new Subscription("${name}", { ${args} }${extra === "" ? "" : `, { ${extra} }`});\n`;
}

/**
 * A program of `body` (statements) with `@pulumi/pulumi` imported as `pulumi` and `Subscription`, a class of
 * three lines that registers the plugin's resource by its type token (what a generated SDK would hold).
 */
export function pluginProgram(body: string): string {
  return `import * as pulumi from "@pulumi/pulumi";

class Subscription extends pulumi.CustomResource {
  constructor(name: string, args: pulumi.Inputs, opts?: pulumi.CustomResourceOptions) {
    super("${PLUGIN_TYPE}", name, args, opts);
  }
}

${body}`;
}

/** The folder that holds `pulumi-resource-shipping`: the `.bin` of the installed packages. */
export async function pluginFolder(): Promise<string> {
  return join(await installedPackages("commonjs"), "node_modules", ".bin");
}

/**
 * A project with the plugin named by folder in Pulumi.yaml (unless `byFolder` is false: then the CLI finds an
 * installed plugin) and a stack `dev` configured for the acme shop of `sim` (the key set in plain text unless
 * `secretKey`: the plugin keeps it secret in state either way).
 */
export async function pluginProject(
  name: string,
  sim: RunningSimulator,
  source: string,
  options: { secretKey?: boolean; byFolder?: boolean } = {},
): Promise<OfficialProject> {
  const files = typescriptProjectFiles(name);
  const project = await OfficialProject.create(name, { ...files, "index.ts": source });
  if (options.byFolder !== false) {
    // A path relative to the project folder, as a user writes `./node_modules/.bin`.
    const folder = relative(project.dir, await pluginFolder());
    const plugins = `plugins:\n  providers:\n    - name: shipping\n      path: ${folder}\n`;
    project.write({ "Pulumi.yaml": `${files["Pulumi.yaml"]}${plugins}` });
  }
  await project.ok(["stack", "init", "dev"]);
  await project.ok(["config", "set", "shipping:baseUrl", sim.baseUrl]);
  await project.ok([
    "config",
    "set",
    ...(options.secretKey === true ? ["--secret"] : []),
    "shipping:apiKey",
    ACME_KEY,
  ]);
  return project;
}

/** The shop's live subscriptions as `hook=url`, sorted. */
export function liveHooks(sim: RunningSimulator, shop = "acme"): string[] {
  return sim
    .subscriptions(shop)
    .map((s) => `${s.hook}=${s.url}`)
    .sort();
}

/** The writes the simulator received since its last reset. */
export function writesTo(sim: RunningSimulator): string[] {
  return sim
    .requests()
    .filter((r) => r.method !== "GET")
    .map((r) => `${r.method} ${r.path} ${r.status}`);
}
