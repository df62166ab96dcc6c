#!/usr/bin/env node
/**
 * The first half of `npm run build`: removes from dist/ every compiled file whose TypeScript source is gone (a
 * file moved or deleted), so that `npm pack` in a working copy ships only modules that have a source. `tsc`
 * only writes; without this, a module moved to another folder stays in dist/ under its old path and goes into
 * the package. Files that still have a source are left in place (a test run reading dist/ meanwhile keeps
 * working); `tsc` overwrites them next.
 */
const { existsSync, readdirSync, rmSync } = require("node:fs");
const { join, relative } = require("node:path");

const ROOT = join(__dirname, "..");
const DIST = join(ROOT, "dist");
/** What tsc writes for one source `x.ts`. */
const COMPILED = /\.(js|js\.map|d\.ts|d\.ts\.map)$/;

/** The source a compiled file came from: dist/a/b.js, .js.map, .d.ts or .d.ts.map come from a/b.ts. */
function sourceOf(compiled) {
  return join(ROOT, relative(DIST, compiled).replace(COMPILED, ".ts"));
}

function clean(folder) {
  let removed = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) removed += clean(path);
    else if (COMPILED.test(entry.name) && !existsSync(sourceOf(path))) {
      rmSync(path, { force: true });
      removed += 1;
    }
  }
  return removed;
}

if (existsSync(DIST)) {
  const removed = clean(DIST);
  if (removed > 0) console.error(`clean-dist: removed ${removed} compiled files whose source is gone`);
}
