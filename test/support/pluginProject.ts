/**
 * Project folders that use the provider plugin `pulumi-resource-shipping` (the package's `bin`, installed from
 * its tarball as a user installs it) through the official CLI against the file's simulator: TypeScript
 * programs that declare its resource by type token, and Pulumi YAML programs. The plugin is named in
 * Pulumi.yaml by folder as `plugins: providers:`. One fixture a plugin test file: {@link usePluginSimulator}.
 */
import { join, relative } from "node:path";
import type { RunningSimulator } from "../../simulator";
import { useAcmeSimulator } from "./acmeSimulator";
import { installedPackages } from "./install";
import { OfficialProject, PLUGIN_TYPE, typescriptProjectFiles } from "./officialProject";
import { ACME_KEY } from "./shops";

// The two hosts' type tokens live with OfficialProject, whose `subscriptions()` reads both.
export { DYNAMIC_TYPE, PLUGIN_TYPE } from "./officialProject";

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

/**
 * Statements of a TypeScript plugin program (for {@link pluginProgram}) that declare `explicit`, an explicit
 * `pulumi:providers:shipping` at the stack's `shipping:baseUrl`, whose key is the secret stack config `key`
 * (`namespace:name`, e.g. `other:key`).
 */
export function explicitProviderSource(key: string): string {
  const [namespace, name] = key.split(":");
  return `class Provider extends pulumi.ProviderResource {
  constructor(name: string, args: pulumi.Inputs) {
    super("shipping", name, args);
  }
}
const explicit = new Provider("explicit", {
  baseUrl: new pulumi.Config("shipping").require("baseUrl"),
  apiKey: new pulumi.Config("${namespace}").requireSecret("${name}"),
});
`;
}

/** The folder that holds `pulumi-resource-shipping`: the `.bin` of the installed packages. */
export async function pluginFolder(): Promise<string> {
  return join(await installedPackages("commonjs"), "node_modules", ".bin");
}

/** An explicit provider of a YAML program whose base URL and key are stack config. */
interface YamlExplicitProvider {
  /** The provider resource's name (what a resource's `options: provider:` names). */
  readonly provider: string;
  /** The secret stack config that holds its key (its base URL is `simUrl`). */
  readonly keyName: string;
}

/**
 * A Pulumi YAML program `name` up to its own resources: `runtime: yaml`, the plugin named by folder in
 * `plugins:`, then `resources:`; with `explicit`, the `config:` of `simUrl` and the secret key it names, and
 * as the first resource that explicit provider (`pulumi:providers:shipping`) taking them.
 */
export async function yamlPluginHead(name: string, explicit?: YamlExplicitProvider): Promise<string> {
  const head = `name: ${name}
runtime: yaml
plugins:
  providers:
    - name: shipping
      path: ${await pluginFolder()}
`;
  if (explicit === undefined) return `${head}resources:\n`;
  return `${head}config:
  simUrl:
    type: string
  ${explicit.keyName}:
    type: string
    secret: true
resources:
  ${explicit.provider}:
    type: pulumi:providers:shipping
    properties:
      baseUrl: \${simUrl}
      apiKey: \${${explicit.keyName}}
`;
}

/** A YAML program's entry of the plugin's resource under `resources:` (through `provider`, when named). */
export function yamlResource(name: string, hook: string, url: string, provider?: string): string {
  return `  ${name}:
    type: ${PLUGIN_TYPE}
    properties:
      hook: ${hook}
      url: ${url}
${provider === undefined ? "" : `    options:\n      provider: \${${provider}}\n`}`;
}

/** How a plugin project's stack `dev` is configured for the acme shop of the file's simulator. */
interface PluginStackOptions {
  /** `shipping:apiKey` set with `--secret` (plain text otherwise: the plugin keeps it secret in state either way). */
  readonly secretKey?: boolean;
}

/** How a TypeScript plugin project differs from the default one. */
interface PluginProjectOptions extends PluginStackOptions {
  /** False: Pulumi.yaml names no plugin folder, so the CLI finds an installed plugin. */
  readonly byFolder?: boolean;
}

/** How a YAML plugin project differs from the default one. */
interface YamlProjectOptions extends PluginStackOptions {
  /**
   * The stack config an explicit provider of {@link yamlPluginHead} reads: `simUrl` (the simulator's
   * URL) and the secret `name` set to `value`.
   */
  readonly explicitKey?: { readonly name: string; readonly value: string };
}

/** The simulator of a plugin test file, reset before each test, and the plugin projects its tests run on it. */
interface PluginSimulator {
  readonly sim: RunningSimulator;
  /**
   * A TypeScript project of `source` (its index.ts) with the plugin named by folder in Pulumi.yaml and a
   * stack `dev` configured for the acme shop of the simulator.
   */
  project(name: string, source: string, options?: PluginProjectOptions): Promise<OfficialProject>;
  /**
   * A YAML project whose Pulumi.yaml is `program`, with a stack `dev` configured for the acme shop of the
   * simulator (and the config of an explicit provider, when `options.explicitKey` names it).
   */
  yamlProject(name: string, program: string, options?: YamlProjectOptions): Promise<OfficialProject>;
  /** The shop's live subscriptions as `hook=url`, sorted. */
  liveHooks(shop?: string): string[];
  /** The writes the simulator received since its last reset (or `clearRequests`), as `METHOD path status`. */
  writes(): string[];
}

/** Starts the simulator of the calling plugin test file ({@link useAcmeSimulator}): one per file. */
export function usePluginSimulator(): PluginSimulator {
  const acme = useAcmeSimulator();
  /** Initialises the stack `dev` of `project` and points its default provider at acme on the simulator. */
  const initStack = async (project: OfficialProject, options: PluginStackOptions): Promise<void> => {
    await project.ok(["stack", "init", "dev"]);
    await project.ok(["config", "set", "shipping:baseUrl", acme.sim.baseUrl]);
    await project.ok([
      "config",
      "set",
      ...(options.secretKey === true ? ["--secret"] : []),
      "shipping:apiKey",
      ACME_KEY,
    ]);
  };
  return {
    get sim() {
      return acme.sim;
    },
    async project(name, source, options = {}) {
      const files = typescriptProjectFiles(name);
      const project = await OfficialProject.create(name, { ...files, "index.ts": source });
      if (options.byFolder !== false) {
        // A path relative to the project folder, as a user writes `./node_modules/.bin`.
        const folder = relative(project.dir, await pluginFolder());
        const plugins = `plugins:\n  providers:\n    - name: shipping\n      path: ${folder}\n`;
        project.write({ "Pulumi.yaml": `${files["Pulumi.yaml"]}${plugins}` });
      }
      await initStack(project, options);
      return project;
    },
    async yamlProject(name, program, options = {}) {
      const project = await OfficialProject.create(name, { "Pulumi.yaml": program });
      await initStack(project, options);
      if (options.explicitKey !== undefined) {
        await project.ok(["config", "set", "simUrl", acme.sim.baseUrl]);
        await project.ok(["config", "set", "--secret", options.explicitKey.name, options.explicitKey.value]);
      }
      return project;
    },
    liveHooks(shop) {
      return acme.liveHooks(shop);
    },
    writes() {
      return acme.sim
        .requests()
        .filter((r) => r.method !== "GET")
        .map((r) => `${r.method} ${r.path} ${r.status}`);
    },
  };
}
