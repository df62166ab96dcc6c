import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { median } from "./table";

/** The stack's state file in a `file://` backend: `.pulumi/stacks/<project>/<stack>.json`. */
function findStateFile(backendDir: string, stackName: string): string {
  const stacks = join(backendDir, ".pulumi", "stacks");
  const wanted = `${stackName}.json`;
  const visit = (dir: string, depth: number): string | undefined => {
    if (depth > 3 || !existsSync(dir)) return undefined;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isFile() && entry.name === wanted) return path;
      if (entry.isDirectory()) {
        const found = visit(path, depth + 1);
        if (found !== undefined) return found;
      }
    }
    return undefined;
  };
  const found = visit(stacks, 0);
  if (found === undefined) throw new Error(`no ${wanted} under ${stacks}: did the up save its state?`);
  return found;
}

/** What the state file says about the resources of one type. */
interface StateFigures {
  /** Bytes of the whole state file. */
  readonly stateBytes: number;
  /** Resources whose type ends with the given suffix. */
  readonly resources: number;
  /** Median bytes of their `__provider` output (a secret counts with its envelope). */
  readonly providerBytes: number;
}

interface StateResource {
  readonly type: string;
  readonly outputs?: { readonly __provider?: unknown };
}

/** Reads the state file of `stackName` in `backendDir` and measures the resources of type `*typeSuffix`. */
export function stateFigures(backendDir: string, stackName: string, typeSuffix: string): StateFigures {
  const file = findStateFile(backendDir, stackName);
  const text = readFileSync(file, "utf8");
  const parsed = JSON.parse(text) as { checkpoint?: { latest?: { resources?: StateResource[] } } };
  const resources = (parsed.checkpoint?.latest?.resources ?? []).filter((r) => r.type.endsWith(typeSuffix));
  const sizes = resources.map((r) => {
    const value = r.outputs?.__provider;
    return Buffer.byteLength(typeof value === "string" ? value : JSON.stringify(value ?? ""));
  });
  return { stateBytes: statSync(file).size, resources: resources.length, providerBytes: median(sizes) };
}
