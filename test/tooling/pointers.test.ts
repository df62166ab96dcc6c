/**
 * A comment or a doc that names a file or folder of this repository (by its path, or by its name alone in
 * backticks), or an export as `module.name`, names one that exists: a pointer to what was renamed or removed
 * sends a newcomer looking for nothing (issue 38). Read: the sources, docs and shell scripts of every folder,
 * the root's docs, vitest's configs and CI's script.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(__dirname, "..", "..");
/** Folders whose sources and docs are read; generated or installed ones are not. */
const SOURCE_DIRS = [
  "provider",
  "simulator",
  "contract",
  "scripts",
  "test",
  "bench",
  "examples",
  "templates",
  "docs",
];
const SKIPPED = new Set(["node_modules", "dist", "api", ".tmp"]);
/** The repository root's docs and the sources of its tools (vitest's configs, CI). */
const ROOT_FILES = [
  "README.md",
  "CONTRIBUTING.md",
  "CHANGELOG.md",
  "vitest.config.mts",
  "vitest.toolchains.config.mts",
  ".ci/run",
];
/** Top-level folders a path in a comment may start with: this repository's, not another project's. */
const OWN_TOP = `(?:${SOURCE_DIRS.join("|")}|\\.github|\\.ci)`;
const PATH = new RegExp(
  `(?<![\\w./-])${OWN_TOP}/[\\w.@-]+(?:/[\\w.@-]+)*(?:\\.(?:ts|mts|js|cjs|mjs|md|json|ya?ml|sh|go|svg)\\b|/(?![\\w.@-]))`,
  "g",
);
/** `module.name` in backticks, where module is a source file of the provider, simulator or contract. */
const QUALIFIED = /`([a-z][A-Za-z]+)\.([A-Za-z_$][\w$]*)`/g;
/** A file of this repository by its name alone in backticks (`name.ts`, `deliveryOrder.ts`, `vitest.config.mts`). */
const FILE_NAME = /`(\w[\w.-]*\.(?:ts|mts|js|cjs|sh))`/g;
/** A relative Markdown link target (no scheme, no anchor-only link). */
const MD_LINK = /\]\((?!https?:|mailto:|#)([^)\s#]+)(?:#[^)]*)?\)/g;

/** The .ts, .mts, .sh and .md files under `dir` (with `all`, every file), skipping generated and installed folders. */
function filesUnder(dir: string, out: string[] = [], all = false): string[] {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    if (SKIPPED.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) filesUnder(path, out, all);
    else if (all || /\.(ts|mts|sh|md)$/.test(name)) out.push(path);
  }
  return out;
}

/** Files whose invented paths are test data, not pointers. */
const DATA = new Set(["test/tooling/pointers.test.ts", "test/tooling/layout.test.ts"]);
const FILES = [
  ...SOURCE_DIRS.flatMap((d) => filesUnder(join(ROOT, d))),
  ...ROOT_FILES.map((f) => join(ROOT, f)),
].filter((f) => !DATA.has(relative(ROOT, f)));
/** File-name extensions: `name.ts` in backticks names a file, not an export. */
const EXTENSIONS = new Set(["ts", "mts", "js", "md", "json", "yml", "yaml", "sh", "go"]);
/** Every file name in the repository's sources, for a bare `name.ts` in backticks. */
const FILE_NAMES = new Set(
  [...SOURCE_DIRS.flatMap((d) => filesUnder(join(ROOT, d), [], true)), ...readdirSync(ROOT)].map((f) =>
    f.slice(f.lastIndexOf("/") + 1),
  ),
);

/** The source file a module name stands for in provider/, simulator/ or contract/ (any depth), if any. */
function moduleFile(name: string): string | undefined {
  for (const dir of ["provider", "simulator", "contract"]) {
    const found = filesUnder(join(ROOT, dir)).find((f) => f.endsWith(`/${name}.ts`));
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Whether `file` exports `name` (declared with `export`, or in an `export { ... }` list). */
function exports(file: string, name: string): boolean {
  const text = readFileSync(file, "utf8");
  const declared = new RegExp(
    `export\\s+(?:declare\\s+)?(?:async\\s+)?(?:function\\*?|const|let|class|abstract class|type|interface|enum)\\s+${name}\\b`,
  );
  const listed = new RegExp(`export\\s*(?:type\\s*)?\\{[^}]*\\b${name}\\b[^}]*\\}`);
  // A class's member named as `Class.member` is a pointer too: the class must declare it.
  return declared.test(text) || listed.test(text);
}

/** The API reference's folder, which `npm run docs` makes (typedoc.json `out`): named before it is made. */
const API_REFERENCE = (JSON.parse(readFileSync(join(ROOT, "typedoc.json"), "utf8")) as { out: string }).out;

/**
 * The broken pointers of `text`, as `at: pointer`: paths from the repository root, `module.name` exports (or
 * members: the module's text names it), and, with `mdDir`, relative Markdown links from that folder.
 */
function brokenPointers(text: string, at: string, mdDir?: string): string[] {
  const broken: string[] = [];
  // A path is from the repository root, or (an example's README) from the file's own folder.
  // A .js path may name what the build makes of a source (dist/ holds it; the source is its .ts).
  const built = (path: string) => /\.js$/.test(path) && existsSync(join(ROOT, path.replace(/\.js$/, ".ts")));
  const exists = (path: string) =>
    existsSync(join(ROOT, path)) ||
    existsSync(join(ROOT, dirname(at), path)) ||
    built(path) ||
    path.startsWith(`${API_REFERENCE}/`);
  for (const [path] of text.matchAll(PATH)) if (!exists(path)) broken.push(`${at}: ${path}`);
  for (const [, file = ""] of text.matchAll(FILE_NAME)) {
    if (!FILE_NAMES.has(file) && !exists(file)) broken.push(`${at}: ${file}`);
  }
  for (const [, module = "", name = ""] of text.matchAll(QUALIFIED)) {
    if (EXTENSIONS.has(name)) {
      if (!FILE_NAMES.has(`${module}.${name}`)) broken.push(`${at}: ${module}.${name}`);
      continue;
    }
    const source = moduleFile(module);
    if (source === undefined || exports(source, name)) continue;
    if (!new RegExp(`\\b${name}\\b`).test(readFileSync(source, "utf8")))
      broken.push(`${at}: ${module}.${name}`);
  }
  if (mdDir === undefined) return [...new Set(broken)];
  for (const [, target = ""] of text.matchAll(MD_LINK)) {
    if (!existsSync(resolve(mdDir, decodeURIComponent(target)))) broken.push(`${at}: link ${target}`);
  }
  return [...new Set(broken)];
}

const brokenIn = (file: string) =>
  brokenPointers(
    readFileSync(file, "utf8"),
    relative(ROOT, file),
    file.endsWith(".md") ? dirname(file) : undefined,
  );

describe("pointers in comments and docs", () => {
  it("every path of this repository and every `module.name` a comment or doc names exists", () => {
    expect(FILES.length).toBeGreaterThan(100);
    expect(FILES.flatMap(brokenIn)).toEqual([]);
  });

  it.each([
    [
      "a path that is gone",
      "See test/unit/ownership.test.ts for the table.",
      ["x: test/unit/ownership.test.ts"],
    ],
    ["an export that is not there", "Decided by `ownership.planCreate`.", ["x: ownership.planCreate"]],
    ["an export that is there", "Decided by `createRule.planCreate`.", []],
    ["another project's path", "pulumi/pulumi sdk/nodejs/provider/server.ts", []],
    ["a file by its name", "Read `previewListing.ts` first.", []],
    ["a file name that is gone", "Read `previewList.ts` first.", ["x: previewList.ts"]],
    ["a hyphenated file name that is gone", "See `delivery-typez.ts`.", ["x: delivery-typez.ts"]],
    ["a root file by its name", "See `vitest.config.mts`.", []],
    ["a root file name that is gone", "See `vitest.configs.mts`.", ["x: vitest.configs.mts"]],
    ["a script that is gone", "Run scripts/clean-dist2.js first.", ["x: scripts/clean-dist2.js"]],
    ["a folder that is gone", "Tests live in test/ownerships/ now.", ["x: test/ownerships/"]],
    ["a folder that is there", "Tests live in test/ownership/.", []],
    ["a Markdown link to a missing doc", "[the rules](rules.md#takeover)", ["x: link rules.md"]],
    ["a Markdown link to a doc beside it", "[safety](safety.md#why)", []],
  ])("finds %s", (_what, text, expected) => {
    expect(brokenPointers(text, "x", join(ROOT, "docs"))).toEqual(expected);
  });
});
