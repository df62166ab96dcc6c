/**
 * Issue 34: when is this package's main module "the program"? Only when @pulumi/pulumi's cmd/run (the Node.js
 * language host's runner) `require`d it as the entry module; a program importing the package, from CommonJS
 * or as an ES module, is never refused. The message names what ran, why Pulumi chose it, and the fix.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { refuseRunAsProgram } from "../../provider/program/programGuards";
import { libraryAsProgramMessage } from "../../provider/program/runAsProgram";

const CLONE = mkdtempSync(join(tmpdir(), "library-as-program-"));
afterAll(() => rmSync(CLONE, { recursive: true, force: true }));
const MAIN = join(CLONE, "dist", "provider", "index.js");
const RUNNER = join(CLONE, "node_modules", "@pulumi", "pulumi", "cmd", "run", "run.js");

/** A CommonJS module record as Node keeps it: its file and the module that first required it. */
function loaded(filename: string, parent: string | null | undefined): NodeJS.Module {
  return {
    filename,
    parent: parent === undefined || parent === null ? parent : { filename: parent },
  } as never;
}

describe("the library run as the program", () => {
  it("is refused when the language host's runner required it, naming what ran, why and the fix", () => {
    expect(() => refuseRunAsProgram(loaded(MAIN, RUNNER))).toThrow(
      /^pulumi-shipping-webhooks is a library, not a program: Pulumi ran .*dist[\\/]provider[\\/]index\.js as the program/,
    );
    const message = libraryAsProgramMessage(MAIN, join(CLONE, "examples", "single-shop"));
    expect(message).toContain(
      `because the project folder ${join(CLONE, "examples", "single-shop")} has no package.json of its own, so Pulumi took the "main" of the nearest one above it, ${join("..", "..", "package.json")} (this package's)`,
    );
    expect(message).toContain("`up` would delete every subscription of the stack");
    expect(message).toContain("Write your program in index.ts of a project with its own package.json");
  });

  it("says the project's main names the package when the project has a package.json", () => {
    const project = mkdtempSync(join(CLONE, "project-"));
    writeFileSync(join(project, "package.json"), '{ "main": "../dist/provider/index.js" }\n');
    expect(libraryAsProgramMessage(MAIN, project)).toContain(
      `because the project's "main" (in Pulumi.yaml or its package.json) names this package`,
    );
  });

  it("is not refused when a program imports it (CommonJS or ES module) or outside a module", () => {
    expect(() => refuseRunAsProgram(loaded(MAIN, join(CLONE, "index.ts")))).not.toThrow();
    expect(() => refuseRunAsProgram(loaded(MAIN, undefined))).not.toThrow();
    expect(() => refuseRunAsProgram(loaded(MAIN, null))).not.toThrow();
    expect(() => refuseRunAsProgram(undefined)).not.toThrow();
  });
});
