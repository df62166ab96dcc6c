/** The Pulumi project folder `export` runs in, found as the `pulumi` CLI finds it. No Pulumi import. */
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/** A Pulumi project: the folder of its Pulumi.yaml, its name, and what its program imports. */
export interface PulumiProject {
  readonly dir: string;
  readonly name: string;
  /** The program file `export`'s TypeScript is meant to be added to (index.ts, or Pulumi.yaml's `main`). */
  readonly program: string;
  /** The program binds `WebhookSubscription` from this package already, so an added program must not. */
  readonly importsWebhookSubscription: boolean;
}

const PROJECT_FILES = ["Pulumi.yaml", "Pulumi.yml"];
/** Folders walked up at most (a path deeper than this is not a real project's). */
const MAX_DEPTH = 64;

/** The project's `name:` (top-level key of Pulumi.yaml); undefined when it has none. */
export function projectName(yaml: string): string | undefined {
  return /^name:[ \t]*["']?([A-Za-z0-9_.-]+)["']?[ \t]*(#.*)?$/m.exec(yaml)?.[1];
}

/** The program's entry as Pulumi.yaml's `main:` says (a file, or a folder holding index.ts); else index.ts. */
function programPath(dir: string, yaml: string): string {
  const main = /^main:[ \t]*["']?([^"'#\n]+?)["']?[ \t]*(#.*)?$/m.exec(yaml)?.[1];
  if (main === undefined) return join(dir, "index.ts");
  const path = resolve(dir, main);
  return existsSync(path) && statSync(path).isDirectory() ? join(path, "index.ts") : path;
}

/**
 * Whether TypeScript source imports `WebhookSubscription` (unrenamed) from pulumi-shipping-webhooks; a
 * second such import in one file fails its compile ("Duplicate identifier").
 */
export function importsWebhookSubscription(source: string): boolean {
  const imports = source.matchAll(
    /import\s+(?:type\s+)?(?:[A-Za-z_$][\w$]*\s*,\s*)?\{([^}]*)\}\s*from\s*["']pulumi-shipping-webhooks["']/g,
  );
  for (const [, names = ""] of imports) {
    const bound = names.split(",").map((n) => n.trim().replace(/^type\s+/, ""));
    if (bound.includes("WebhookSubscription") || bound.some((n) => / as\s+WebhookSubscription$/.test(n)))
      return true;
  }
  return false;
}

/** The project whose Pulumi.yaml is in `cwd` or the nearest folder above it; undefined outside a project. */
export function findProject(cwd: string): PulumiProject | undefined {
  let dir = resolve(cwd);
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    for (const file of PROJECT_FILES) {
      const path = join(dir, file);
      if (!existsSync(path)) continue;
      const yaml = readFileSync(path, "utf8");
      const program = programPath(dir, yaml);
      const source = existsSync(program) && statSync(program).isFile() ? readFileSync(program, "utf8") : "";
      return {
        dir,
        name: projectName(yaml) ?? "project",
        program,
        importsWebhookSubscription: importsWebhookSubscription(source),
      };
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
  return undefined;
}
