/**
 * The layout of the project's modules (issue 27), read with the TypeScript compiler's parser: no import cycle
 * among the modules of contract/, provider/, simulator/, scripts/, examples/ and the root index.ts; provider/
 * and simulator/ share only contract/ (neither reaches the other, directly or through another module, and
 * contract/ imports nothing of the project outside itself); and no source file of those folders is over
 * 300 lines. Every failure prints the offending cycle, path or files.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import * as ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = join(__dirname, "..", "..");
/** The folders whose modules are checked (tests are not: they may reach anything they test). */
const AREAS = ["contract", "provider", "simulator", "scripts", "examples"] as const;
/** Source files: what is parsed for imports and held to the line limit (not data, lock or Markdown files). */
const SOURCE = /\.(ts|mts|cts|js|mjs|cjs|sh|go)$/;
/** Files whose imports are read (the rest are sources without JavaScript imports). */
const MODULE = /\.(ts|mts|cts|js|mjs|cjs)$/;
/** Most lines a source file may have. */
const MAX_LINES = 300;
/**
 * Cycles known today and owned by a change in progress, each with what closes it: listed so the fast suite
 * stays green meanwhile; the test fails on any other cycle, and on an entry that is gone (remove it then).
 * Type-only imports count: they tie two modules together as much as any import. Empty is the goal.
 */
const KNOWN_CYCLES: Readonly<Record<string, string>> = {};
const PACKAGE = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  name: string;
  exports: Record<string, string | { default?: string }>;
};

/** A module graph: each project file (relative, "/"-separated) and the project files it imports. */
type Graph = ReadonlyMap<string, readonly string[]>;

const toKey = (absolute: string): string => relative(ROOT, absolute).split(sep).join("/");

function walk(dir: string, out: string[]): void {
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name === "dist" || name.startsWith(".")) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (SOURCE.test(name)) out.push(path);
  }
}

/** Every source file of the checked folders, and the root program. */
function sourceFiles(): string[] {
  const files: string[] = [join(ROOT, "index.ts")];
  for (const area of AREAS) if (existsSync(join(ROOT, area))) walk(join(ROOT, area), files);
  return files;
}

/** The specifiers a module imports: import and export declarations, `import x = require()`, require() and import(). */
function specifiers(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier !== undefined &&
      ts.isStringLiteral(node.moduleSpecifier)
    )
      found.push(node.moduleSpecifier.text);
    else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    )
      found.push(node.moduleReference.expression.text);
    else if (ts.isCallExpression(node) && node.arguments.length === 1) {
      const [argument] = node.arguments;
      const callee = node.expression;
      const loads =
        callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === "require");
      if (loads && argument !== undefined && ts.isStringLiteralLike(argument)) found.push(argument.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The source file a `dist/` path of package.json's exports is built from. */
const sourceOfDist = (path: string): string =>
  join(
    ROOT,
    path
      .replace(/^\.\//, "")
      .replace(/^dist\//, "")
      .replace(/\.js$/, ".ts"),
  );

/** The project file `specifier` names from `file`; undefined for another package; null when nothing matches. */
function resolveImport(file: string, specifier: string): string | undefined | null {
  let base: string;
  if (specifier.startsWith(".")) base = resolve(dirname(file), specifier);
  else if (specifier === PACKAGE.name || specifier.startsWith(`${PACKAGE.name}/`)) {
    const entry = PACKAGE.exports[`.${specifier.slice(PACKAGE.name.length)}`];
    const target = typeof entry === "string" ? entry : entry?.default;
    if (target === undefined || !target.endsWith(".js")) return null;
    base = sourceOfDist(target);
  } else return undefined;
  const stem = base.replace(/\.(js|mjs|cjs)$/, "");
  const candidates = [base, `${stem}.ts`, `${stem}.mts`, `${stem}.cts`, `${base}.ts`, `${base}.js`];
  candidates.push(join(base, "index.ts"), join(base, "index.js"));
  const hit = candidates.find((path) => existsSync(path) && statSync(path).isFile());
  return hit === undefined ? null : toKey(hit);
}

/** The project's module graph and the imports that name no file. */
function moduleGraph(): { graph: Graph; unresolved: string[] } {
  const graph = new Map<string, string[]>();
  const unresolved: string[] = [];
  for (const file of sourceFiles().filter((path) => MODULE.test(path))) {
    const edges: string[] = [];
    for (const specifier of specifiers(file)) {
      const target = resolveImport(file, specifier);
      if (target === null) unresolved.push(`${toKey(file)} imports "${specifier}"`);
      else if (target !== undefined && !edges.includes(target)) edges.push(target);
    }
    graph.set(toKey(file), edges);
  }
  return { graph, unresolved };
}

/** Every import cycle of `graph`, each as its modules in import order, first module repeated last; once each. */
function findCycles(graph: Graph): string[][] {
  const cycles = new Map<string, string[]>();
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (node: string): void => {
    state.set(node, "open");
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === "open") {
        const cycle = stack.slice(stack.indexOf(next));
        const start = cycle.indexOf([...cycle].sort()[0] ?? next);
        const rotated = [...cycle.slice(start), ...cycle.slice(0, start)];
        cycles.set(rotated.join(" -> "), [...rotated, rotated[0] ?? next]);
      } else if (state.get(next) === undefined) visit(next);
    }
    stack.pop();
    state.set(node, "done");
  };
  for (const node of [...graph.keys()].sort()) if (state.get(node) === undefined) visit(node);
  return [...cycles.values()];
}

/** The shortest import path from a module under `from` to one under `to` (folders with a trailing "/"). */
function pathBetween(graph: Graph, from: string, to: string): string[] | undefined {
  const parent = new Map<string, string | undefined>();
  const queue = [...graph.keys()].filter((key) => key.startsWith(from));
  for (const key of queue) parent.set(key, undefined);
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i] as string;
    if (node.startsWith(to)) {
      const path = [node];
      for (let p = parent.get(node); p !== undefined; p = parent.get(p)) path.unshift(p);
      return path;
    }
    for (const next of graph.get(node) ?? []) {
      if (parent.has(next)) continue;
      parent.set(next, node);
      queue.push(next);
    }
  }
  return undefined;
}

/** Every module reachable from the modules under `folder` (themselves included). */
function reachable(graph: Graph, folder: string): Set<string> {
  const seen = new Set([...graph.keys()].filter((key) => key.startsWith(folder)));
  const queue = [...seen];
  for (let node = queue.pop(); node !== undefined; node = queue.pop()) {
    for (const next of graph.get(node) ?? []) {
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push(next);
    }
  }
  return seen;
}

/** Lines of a text file as `wc -l` counts them, plus a last line without its newline. */
function lineCount(path: string): number {
  const text = readFileSync(path, "utf8");
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

const { graph, unresolved } = moduleGraph();

describe("module layout", () => {
  it("every project import names a file", () => {
    expect(unresolved, unresolved.join("\n")).toEqual([]);
  });

  it("has no import cycle", () => {
    const cycles = findCycles(graph);
    const edges = [...graph.values()].reduce((sum, targets) => sum + targets.length, 0);
    const named = cycles.map((cycle) => cycle.join(" -> "));
    console.log(
      `layout: ${graph.size} modules, ${edges} project imports, ${cycles.length} cycle(s)${named.map((c) => `\n  ${c}`).join("")}`,
    );
    const unknown = named.filter((cycle) => KNOWN_CYCLES[cycle] === undefined);
    const gone = Object.keys(KNOWN_CYCLES).filter((cycle) => !named.includes(cycle));
    expect(unknown.join("\n")).toBe("");
    expect(gone.map((cycle) => `${cycle} is gone: remove it from KNOWN_CYCLES`).join("\n")).toBe("");
  });

  it("finds a cycle that is there, with its modules in order (the check checked)", () => {
    const sample: Graph = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["c.ts"]],
      ["c.ts", ["a.ts", "d.ts"]],
      ["d.ts", []],
      ["e.ts", ["e.ts"]],
    ]);
    expect(findCycles(sample)).toEqual([
      ["a.ts", "b.ts", "c.ts", "a.ts"],
      ["e.ts", "e.ts"],
    ]);
    expect(
      findCycles(
        new Map([
          ["a.ts", ["b.ts"]],
          ["b.ts", []],
        ]),
      ),
    ).toEqual([]);
  });

  it("provider/ and simulator/ share only contract/", () => {
    const problems: string[] = [];
    for (const [from, to] of [
      ["provider/", "simulator/"],
      ["simulator/", "provider/"],
      ["contract/", "provider/"],
      ["contract/", "simulator/"],
      ["contract/", "scripts/"],
      ["contract/", "examples/"],
    ] as const) {
      const path = pathBetween(graph, from, to);
      if (path !== undefined) problems.push(`${from} reaches ${to}: ${path.join(" -> ")}`);
    }
    const provider = reachable(graph, "provider/");
    const shared = [...reachable(graph, "simulator/")].filter((key) => provider.has(key));
    const outside = shared.filter((key) => !key.startsWith("contract/"));
    if (outside.length > 0) problems.push(`both reach modules outside contract/: ${outside.join(", ")}`);
    console.log(`layout: provider/ and simulator/ share ${shared.length} module(s): ${shared.join(", ")}`);
    expect(problems.join("\n")).toBe("");
    expect(shared.length).toBeGreaterThan(0);
  });

  it("finds a path from one folder to another through a third (the check checked)", () => {
    const sample: Graph = new Map([
      ["provider/a.ts", ["scripts/b.ts"]],
      ["scripts/b.ts", ["simulator/c.ts"]],
      ["simulator/c.ts", ["contract/d.ts"]],
      ["contract/d.ts", []],
    ]);
    expect(pathBetween(sample, "provider/", "simulator/")).toEqual([
      "provider/a.ts",
      "scripts/b.ts",
      "simulator/c.ts",
    ]);
    expect(pathBetween(sample, "simulator/", "provider/")).toBeUndefined();
  });

  it(`has no source file over ${MAX_LINES} lines`, () => {
    const sizes = sourceFiles().map((path) => ({ file: toKey(path), lines: lineCount(path) }));
    const over = sizes.filter(({ lines }) => lines > MAX_LINES);
    const longest = [...sizes].sort((a, b) => b.lines - a.lines).slice(0, 3);
    console.log(
      `layout: ${sizes.length} source files; longest ${longest.map((s) => `${s.file} ${s.lines}`).join(", ")}` +
        (over.length === 0
          ? ""
          : `; over ${MAX_LINES}: ${over.map((s) => `${s.file} (${s.lines})`).join(", ")}`),
    );
    expect(over.map((s) => `${s.file}: ${s.lines} lines (split it)`).join("\n")).toBe("");
  });
});
