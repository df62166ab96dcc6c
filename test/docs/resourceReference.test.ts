/**
 * docs/webhook-subscription.md's one table of the resource's properties, held to the TypeScript types a
 * program compiles against: the arguments (`WebhookSubscriptionArgs`: name, type, required or optional), the
 * outputs (the class's `pulumi.Output` properties: name, type, always set or maybe undefined), and which
 * arguments force a replacement (the provider's diff, `INPUT_PROPERTIES`). A property added, removed, renamed,
 * retyped or made optional in the code fails here until the page says so.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as ts from "typescript";
import { describe, expect, it } from "vitest";
import { INPUT_PROPERTIES } from "../../provider/inputs/lifecycle";

const ROOT = join(__dirname, "..", "..");
const PAGE = "docs/webhook-subscription.md";
const SOURCE = join(ROOT, "provider", "program", "webhookSubscription.ts");

/** One property as the page's table or the types describe it. */
interface Property {
  readonly name: string;
  /** The type a user writes or reads, without `pulumi.Input`/`pulumi.Output` and `undefined`. */
  readonly type: string;
  /** As an argument: required, optional, or not an argument ("no"). */
  readonly argument: "required" | "optional" | "no";
  /** As an output: always set, maybe undefined ("optional"), or not an output ("no"). */
  readonly output: "always" | "optional" | "no";
}

/** The table after `<!-- table: properties -->`: its cells, `\|` unescaped and code backticks dropped. */
function tableRows(): string[][] {
  const text = readFileSync(join(ROOT, PAGE), "utf8");
  const at = text.indexOf("<!-- table: properties -->");
  if (at === -1) throw new Error(`${PAGE} has no <!-- table: properties --> table`);
  const lines = text.slice(at).split("\n").slice(1);
  const table = lines.slice(
    0,
    lines.findIndex((line) => !line.startsWith("|")),
  );
  return table.slice(2).map((line) =>
    line
      .slice(1, -1)
      .split(/(?<!\\)\|/)
      .map((cell) => cell.replace(/\\\|/g, "|").trim().replace(/^`|`$/g, "")),
  );
}

/** The page's properties, and its "Forces replacement" column by property. */
function pageProperties(): { properties: Property[]; replaces: Map<string, string> } {
  const properties: Property[] = [];
  const replaces = new Map<string, string>();
  for (const [name = "", type = "", argument = "", forces = "", output = ""] of tableRows()) {
    properties.push({
      name,
      type,
      argument: argument as Property["argument"],
      output: output as Property["output"],
    });
    replaces.set(name, forces);
  }
  return { properties, replaces };
}

/** A type as a user reads it: a union of string literals, `{ a: T; b: U }` for an interface, else its name. */
function typeText(checker: ts.TypeChecker, type: ts.Type): string {
  const defined = checker.getNonNullableType(type);
  if (defined.isUnion() && defined.types.every((member) => member.isStringLiteral()))
    return defined.types.map((member) => JSON.stringify((member as ts.StringLiteralType).value)).join(" | ");
  if (defined.flags & ts.TypeFlags.Object && defined.getCallSignatures().length === 0) {
    const fields = checker
      .getPropertiesOfType(defined)
      .map((field) => `${field.name}: ${checker.typeToString(checker.getTypeOfSymbol(field))}`);
    return `{ ${fields.join("; ")} }`;
  }
  return checker.typeToString(defined);
}

/** `pulumi.Input<T>` or `pulumi.Output<T>` -> T's node; any other type node as it is. */
function unwrapped(node: ts.TypeNode, wrapper: "Input" | "Output"): ts.TypeNode {
  const parts = ts.isUnionTypeNode(node) ? node.types : [node];
  const wrapped = parts.find(
    (part) => ts.isTypeReferenceNode(part) && part.typeName.getText().endsWith(`.${wrapper}`),
  ) as ts.TypeReferenceNode | undefined;
  return wrapped?.typeArguments?.[0] ?? node;
}

/** The arguments and outputs as provider/program/webhookSubscription.ts declares them, read by the type checker. */
function codeProperties(): Property[] {
  const program = ts.createProgram([SOURCE], { strict: true, skipLibCheck: true, noEmit: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(SOURCE);
  if (source === undefined) throw new Error(`cannot read ${SOURCE}`);
  const byName = new Map<string, Property>();
  const add = (name: string, change: Partial<Property> & { type: string }) => {
    const known = byName.get(name) ?? { name, type: change.type, argument: "no", output: "no" };
    byName.set(name, { ...known, ...change });
  };
  const mayBeUndefined = (node: ts.TypeNode) =>
    checker.getTypeFromTypeNode(node) !== checker.getNonNullableType(checker.getTypeFromTypeNode(node));
  for (const statement of source.statements) {
    if (ts.isInterfaceDeclaration(statement) && statement.name.text === "WebhookSubscriptionArgs") {
      for (const member of statement.members) {
        if (!ts.isPropertySignature(member) || member.type === undefined) continue;
        const inner = unwrapped(member.type, "Input");
        add(member.name.getText(source), {
          type: typeText(checker, checker.getTypeFromTypeNode(inner)),
          argument: member.questionToken === undefined ? "required" : "optional",
        });
      }
    }
    if (ts.isClassDeclaration(statement) && statement.name?.text === "WebhookSubscription") {
      for (const member of statement.members) {
        if (!ts.isPropertyDeclaration(member) || member.type === undefined) continue;
        const inner = unwrapped(member.type, "Output");
        add(member.name.getText(source), {
          type: typeText(checker, checker.getTypeFromTypeNode(inner)),
          output: mayBeUndefined(inner) ? "optional" : "always",
        });
      }
    }
  }
  return [...byName.values()];
}

/** Properties by name, for an order-free comparison. */
function byName(properties: readonly Property[]): Record<string, Property> {
  return Object.fromEntries(properties.map((property) => [property.name, property]));
}

describe(`${PAGE}: the table of arguments and outputs`, () => {
  const page = pageProperties();
  const code = codeProperties();

  it("lists every argument and output of the TypeScript types, with their types, and nothing else", () => {
    expect(code.length).toBeGreaterThan(0);
    expect(byName(page.properties)).toEqual(byName(code));
  });

  it("says which arguments force a replacement as the provider's diff decides it", () => {
    const expected = Object.fromEntries(
      code.map((property) => [
        property.name,
        property.argument === "no"
          ? "-"
          : (INPUT_PROPERTIES as readonly string[]).includes(property.name)
            ? "yes"
            : "no",
      ]),
    );
    expect(Object.fromEntries(page.replaces)).toEqual(expected);
  });
});
