/**
 * Whether a module of this package is itself the program that the language host runs, and the message that
 * refuses it. Pulumi takes the "main" of the nearest package.json above a project folder that has none, so
 * `pulumi up` in a folder with only a Pulumi.yaml in a clone of this repository runs the library; a Pulumi.yaml
 * `main` may name one of its modules. Such a program declares nothing, and `up` would delete every subscription
 * of the stack. No @pulumi/pulumi here: the provider's runtime module asks this at load, in every provider
 * process.
 */
import { existsSync } from "node:fs";
import { dirname, join, relative } from "node:path";

/** The module of @pulumi/pulumi that `require`s a CommonJS program's entry module. */
const PROGRAM_RUNNER = /[\\/]@pulumi[\\/]pulumi[\\/]cmd[\\/]run[\\/]run\.js$/;

/** Whether `loaded` was `require`d by @pulumi/pulumi's cmd/run: the CommonJS program's entry module. */
export function loadedAsProgram(loaded: NodeJS.Module | undefined): loaded is NodeJS.Module {
  const parent = (loaded as (NodeJS.Module & { parent?: NodeJS.Module | null }) | undefined)?.parent;
  return loaded !== undefined && !!parent && PROGRAM_RUNNER.test(parent.filename);
}

/**
 * The refusal when `main` (a module of this package) was loaded by @pulumi/pulumi's cmd/run as the program's
 * entry module; undefined otherwise. A program that imports the package is never this (the package's module
 * then has the program's module as its parent), nor the dynamic-provider host's require of it.
 */
export function libraryRunAsProgram(main: NodeJS.Module | undefined): string | undefined {
  return !loadedAsProgram(main) ? undefined : libraryAsProgramMessage(main.filename, process.cwd());
}

/** The refusal of a module of this package run as the program: what ran, why Pulumi chose it, and the fix. */
export function libraryAsProgramMessage(ran: string, projectDir: string): string {
  const manifest = join(dirname(ran), "..", "..", "package.json");
  // A Pulumi.yaml `main` naming the module itself: the language host runs the program from the module's folder.
  const namedDirectly = dirname(ran) === projectDir;
  const what = namedDirectly
    ? `${relative(dirname(manifest), ran)} of this package`
    : relative(projectDir, ran);
  const why =
    namedDirectly || existsSync(join(projectDir, "package.json"))
      ? `the project's "main" (in Pulumi.yaml or its package.json) names this package`
      : `the project folder ${projectDir} has no package.json of its own, so Pulumi took the "main" of the nearest one above it, ${relative(projectDir, manifest)} (this package's)`;
  return `pulumi-shipping-webhooks is a library, not a program: Pulumi ran ${what} as the program because ${why}. It declares nothing, so the update stops here (\`up\` would delete every subscription of the stack). Write your program in index.ts of a project with its own package.json ("main": "index.ts", depending on pulumi-shipping-webhooks and @pulumi/pulumi) and tsconfig.json, as examples/single-shop in the repository is, then run \`npm install\` there.`;
}
