/**
 * The reference of the provider plugin, generated from its schema (provider/plugin/schema.json) into
 * docs/plugin-reference.md: the resource's inputs (type, required, forces replacement) and outputs, import by
 * id, and the provider's configuration, registry-style. `npm run docs:plugin` writes it;
 * test/plugin/pluginDocs.test.ts fails when the file, the schema and the TypeScript types drift apart.
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import schema from "../provider/plugin/schema.json";

/** A property of the schema, as far as the reference reads it. */
interface SchemaProperty {
  readonly type?: string;
  readonly $ref?: string;
  readonly description?: string;
  readonly secret?: boolean;
  readonly replaceOnChanges?: boolean;
}

/** The schema as the reference reads it. */
interface PluginSchema {
  readonly name: string;
  readonly version: string;
  readonly pluginDownloadURL?: string;
  readonly config: { readonly variables: Readonly<Record<string, SchemaProperty>> };
  readonly types: Readonly<
    Record<
      string,
      {
        readonly type: string;
        readonly description?: string;
        readonly enum?: readonly { readonly value: string }[];
        readonly properties?: Readonly<Record<string, SchemaProperty>>;
      }
    >
  >;
  readonly resources: Readonly<
    Record<
      string,
      {
        readonly description: string;
        readonly inputProperties: Readonly<Record<string, SchemaProperty>>;
        readonly requiredInputs: readonly string[];
        readonly properties: Readonly<Record<string, SchemaProperty>>;
        readonly required: readonly string[];
      }
    >
  >;
}

/** The repository: above scripts/ (sources), or above dist/scripts/ (the build). */
const ROOT = existsSync(join(__dirname, "..", "package.json"))
  ? join(__dirname, "..")
  : join(__dirname, "..", "..");
/** Where the reference is written. */
export const PLUGIN_REFERENCE = join(ROOT, "docs", "plugin-reference.md");

function typeOf(property: SchemaProperty): string {
  if (property.$ref !== undefined) return property.$ref.replace("#/types/", "");
  return property.type ?? "any";
}

/** How to get and use the plugin: the part of the reference the schema does not hold. */
const USING = [
  "How do I declare a webhook subscription from Pulumi YAML, Go or another language, or adopt one with `pulumi",
  "import`? `pulumi-resource-shipping` serves the same provider as the package's TypeScript class, to any",
  "Pulumi language and to `pulumi import`.",
  "",
  "- In a project that installs this package, name its `bin` folder in Pulumi.yaml:",
  "  `plugins: { providers: [{ name: shipping, path: ./node_modules/.bin }] }`.",
  "- Elsewhere, `npm run plugin:tarball` in a clone builds `pulumi-resource-shipping-v<version>-<os>-<arch>.tar.gz`;",
  "  `pulumi plugin install resource shipping <version> --file <tarball>` installs it (the CLI runs `npm install`).",
  "- A stack of the TypeScript class moves to the plugin's resource with no write when the resource is given",
  '  `aliases: [{ type: "pulumi-nodejs:dynamic/shipping:WebhookSubscription" }]` (one update that rewrites the',
  "  state); without the alias the subscription is kept too (the plugin's create adopts it, and the old",
  "  resource's delete leaves it to the new one).",
  "",
];

/**
 * Where a missing plugin comes from. The schema's `pluginDownloadURL` names the repository whose release
 * `v<version>` holds the tarballs (the release workflow attaches them there; test/tooling/releaseWorkflow.test.ts),
 * but only a generated SDK passes it to the CLI: for a YAML or Go program the CLI cannot read the schema of a
 * plugin it does not have, and asks `pulumi/pulumi-<name>` (an empty PULUMI_HOME, CLI 3.248: a YAML preview
 * asked `api.github.com/repos/pulumi/pulumi-shipping/releases/latest`). So the note says how such a program
 * names the source: the resource options `version` and `pluginDownloadURL`, or `pulumi plugin install --server`.
 * The YAML example is a code block, so the reference's first answer comes within the words docs test allows.
 */
function downloadNote(source: PluginSchema): string[] {
  const url = source.pluginDownloadURL ?? "";
  const repository = /^github:\/\/api\.github\.com\/(.+)$/.exec(url)?.[1];
  if (repository === undefined) return [];
  return [
    `A missing plugin is in the GitHub release \`v${source.version}\` of \`${repository}\`, but the schema's`,
    "`pluginDownloadURL` naming it reaches only generated SDKs: for a YAML or Go program the CLI cannot read",
    `the schema of a plugin it does not have, and asks \`pulumi/pulumi-${source.name}\`. Install it first`,
    `with \`pulumi plugin install resource ${source.name} ${source.version} --server ${url}\`, or give the resource`,
    "the options `version` and `pluginDownloadURL`; in Pulumi YAML:",
    "",
    "```yaml",
    `    options: { version: ${source.version}, pluginDownloadURL: "${url}" }`,
    "```",
    "",
    `In Go: \`pulumi.Version("${source.version}"), pulumi.PluginDownloadURL("${url}")\`.`,
    "",
  ];
}

const cell = (text: string | undefined) => (text ?? "").replace(/\|/g, "\\|").replace(/\n/g, " ");
const yes = (flag: boolean | undefined) => (flag === true ? "yes" : "");

/** The reference of `source` as Markdown. */
export function pluginReference(source: PluginSchema = schema as PluginSchema): string {
  const lines: string[] = [
    "# Provider plugin reference",
    "",
    `<!-- Generated by \`npm run docs:plugin\` from provider/plugin/schema.json (package \`${source.name}\`, version ${source.version}); do not edit by hand. -->`,
    "",
    ...USING,
    ...downloadNote(source),
  ];
  for (const [token, resource] of Object.entries(source.resources)) {
    const [description, ...sections] = resource.description.split("\n\n## ");
    lines.push(`## ${token}`, "", description ?? "", "", "### Inputs", "");
    lines.push("| Input | Type | Required | Forces replacement | Description |", "|---|---|---|---|---|");
    for (const [name, p] of Object.entries(resource.inputProperties))
      lines.push(
        `| \`${name}\` | ${typeOf(p)} | ${yes(resource.requiredInputs.includes(name))} | ${yes(p.replaceOnChanges)} | ${cell(p.description)} |`,
      );
    lines.push(
      "",
      "### Outputs",
      "",
      "| Output | Type | Always set | Secret | Description |",
      "|---|---|---|---|---|",
    );
    for (const [name, p] of Object.entries(resource.properties))
      lines.push(
        `| \`${name}\` | ${typeOf(p)} | ${yes(resource.required.includes(name))} | ${yes(p.secret)} | ${cell(p.description)} |`,
      );
    for (const section of sections) lines.push("", `### ${section}`);
    lines.push("");
  }
  lines.push("## Types", "");
  for (const [token, type] of Object.entries(source.types)) {
    lines.push(`### ${token}`, "", type.description ?? "", "");
    if (type.enum !== undefined)
      lines.push(`One of: ${type.enum.map((e) => `\`${e.value}\``).join(", ")}.`, "");
    for (const [name, p] of Object.entries(type.properties ?? {}))
      lines.push(`- \`${name}\` (${typeOf(p)}): ${p.description ?? ""}`);
    if (type.properties !== undefined) lines.push("");
  }
  lines.push(
    "## Configuration",
    "",
    `Stack config \`${source.name}:<setting>\` for the default provider, or the inputs of an explicit \`pulumi:providers:${source.name}\` resource.`,
    "",
    "| Setting | Type | Secret | Description |",
    "|---|---|---|---|",
  );
  for (const [name, p] of Object.entries(source.config.variables))
    lines.push(`| \`${source.name}:${name}\` | ${typeOf(p)} | ${yes(p.secret)} | ${cell(p.description)} |`);
  return `${lines.join("\n")}\n`;
}

if (require.main === module) writeFileSync(PLUGIN_REFERENCE, pluginReference());
