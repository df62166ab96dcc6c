#!/usr/bin/env node
/**
 * The npm registry reachable here serves only this machine's platform packages of @biomejs/biome and of
 * pnpm (its native @pnpm/exe.* binaries), so `npm install` leaves the other platforms out of
 * package-lock.json, and `npm ci` then refuses the lock as out of sync. This records them as optional,
 * platform-bound entries (npm ci skips them without fetching).
 * Run after any `npm install`: `node scripts/lock-foreign-platforms.js`.
 */
const { readFileSync, writeFileSync } = require("node:fs");
const { join } = require("node:path");

const LOCK = join(__dirname, "..", "package-lock.json");
/** Packages whose optional dependencies are per-platform binaries, and the prefix before `<os>-<cpu>[-musl]`. */
const PLATFORM_PARENTS = [
  { parent: "@biomejs/biome", prefix: "@biomejs/cli-" },
  { parent: "pnpm", prefix: "@pnpm/exe." },
];

/** `linux-x64-musl` -> { os: ["linux"], cpu: ["x64"], libc: ["musl"] }; undefined when it is no platform. */
function platformOf(suffix) {
  const match = /^([a-z0-9]+)-([a-z0-9]+)(-musl)?$/.exec(suffix);
  if (match === null) return undefined;
  const [, os, cpu, musl] = match;
  if (os !== "linux") return { os: [os], cpu: [cpu] };
  return { os: [os], cpu: [cpu], libc: [musl === undefined ? "glibc" : "musl"] };
}

const lock = JSON.parse(readFileSync(LOCK, "utf8"));
for (const { parent, prefix } of PLATFORM_PARENTS) {
  const entry = lock.packages[`node_modules/${parent}`];
  if (entry === undefined) throw new Error(`${parent} is not in package-lock.json`);
  let added = 0;
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    const platform = name.startsWith(prefix) ? platformOf(name.slice(prefix.length)) : undefined;
    if (lock.packages[key] !== undefined || platform === undefined) continue;
    lock.packages[key] = {
      version,
      ...platform,
      dev: true,
      license: entry.license,
      optional: true,
      ...(entry.engines !== undefined ? { engines: entry.engines } : {}),
    };
    added++;
  }
  console.log(`package-lock.json: ${added} platform entr${added === 1 ? "y" : "ies"} of ${parent} added`);
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))),
);
writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
