/**
 * The plugin's schema, its generated reference (docs/plugin-reference.md, `npm run docs:plugin`) and the
 * TypeScript types say the same: the reference is what the generator makes of the schema; the schema's
 * inputs are WebhookSubscriptionArgs's members (required where not optional), its outputs SubscriptionOutputs's
 * (the marker of an unconfirmed write aside), the properties that force a replacement the provider's, its
 * config the settings, its hook enum the hooks. Each failure names what drifted.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as ts from "typescript";
import { describe, expect, it } from "vitest";
import { SETTINGS } from "../../provider/config/settings";
import { HOOKS } from "../../provider/inputs/hooks";
import { INPUT_PROPERTIES } from "../../provider/inputs/lifecycle";
import { SECRET_SETTINGS } from "../../provider/plugin/config";
import schema from "../../provider/plugin/schema.json";
import { PLUGIN_REFERENCE, pluginReference } from "../../scripts/pluginDocs";

const ROOT = join(__dirname, "..", "..");
const resource = schema.resources["shipping:index:WebhookSubscription"];

/** The members of an interface of a source file: name -> optional. */
function members(file: string, name: string): Record<string, boolean> {
  const source = ts.createSourceFile(
    file,
    readFileSync(join(ROOT, file), "utf8"),
    ts.ScriptTarget.Latest,
    true,
  );
  const found = source.statements.find(
    (s): s is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(s) && s.name.text === name,
  );
  if (found === undefined) throw new Error(`${file} has no interface ${name}`);
  return Object.fromEntries(
    found.members
      .filter(ts.isPropertySignature)
      .map((m) => [m.name.getText(source), m.questionToken !== undefined]),
  );
}

/** A schema property map as name -> optional, given the required names. */
function optionality(
  properties: Record<string, unknown>,
  required: readonly string[],
): Record<string, boolean> {
  return Object.fromEntries(Object.keys(properties).map((key) => [key, !required.includes(key)]));
}

describe("the plugin's schema, reference and types", () => {
  it("docs/plugin-reference.md is what `npm run docs:plugin` makes of the schema", () => {
    expect(readFileSync(PLUGIN_REFERENCE, "utf8")).toBe(pluginReference());
  });

  it("the inputs are WebhookSubscriptionArgs's, required where not optional", () => {
    expect(optionality(resource.inputProperties, resource.requiredInputs)).toEqual(
      members("provider/program/webhookSubscription.ts", "WebhookSubscriptionArgs"),
    );
  });

  it("the outputs are SubscriptionOutputs's (the unconfirmed-write marker aside), always set where not optional", () => {
    const { unconfirmed: _internal, ...outputs } = members(
      "provider/operations/records.ts",
      "SubscriptionOutputs",
    );
    expect(optionality(resource.properties, resource.required)).toEqual({ ...outputs, takeOver: true });
  });

  it("the properties that force a replacement are the provider's", () => {
    const replacing = Object.entries(resource.inputProperties)
      .filter(([, p]) => (p as { replaceOnChanges?: boolean }).replaceOnChanges === true)
      .map(([name]) => name);
    expect(replacing).toEqual([...INPUT_PROPERTIES]);
  });

  it("the config is the settings, the credentials secret; the hook enum is the hooks", () => {
    expect(Object.keys(schema.config.variables).sort()).toEqual(Object.keys(SETTINGS).sort());
    const secret = Object.entries(schema.config.variables).filter(
      ([, v]) => (v as { secret?: boolean }).secret,
    );
    expect(secret.map(([name]) => name).sort()).toEqual([...SECRET_SETTINGS].sort());
    expect(schema.types["shipping:index:Hook"].enum.map((e) => e.value)).toEqual([...HOOKS]);
  });
});
