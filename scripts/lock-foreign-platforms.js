#!/usr/bin/env node
/**
 * The npm registry reachable here serves only this machine's platform packages of @biomejs/biome, so
 * `npm install` leaves the other platforms out of package-lock.json, and `npm ci` then refuses the lock as
 * out of sync. This records them as optional, platform-bound entries (npm ci skips them without fetching).
 * Run after any `npm install`: `node scripts/lock-foreign-platforms.js`.
 */
const { readFileSync, writeFileSync } = require("node:fs");
const { join } = require("node:path");

const LOCK = join(__dirname, "..", "package-lock.json");
const PLATFORMS = {
  "android-arm64": { os: ["android"], cpu: ["arm64"] },
  "android-x64": { os: ["android"], cpu: ["x64"] },
  "darwin-arm64": { os: ["darwin"], cpu: ["arm64"] },
  "darwin-x64": { os: ["darwin"], cpu: ["x64"] },
  "linux-arm64": { os: ["linux"], cpu: ["arm64"], libc: ["glibc"] },
  "linux-arm64-musl": { os: ["linux"], cpu: ["arm64"], libc: ["musl"] },
  "linux-x64": { os: ["linux"], cpu: ["x64"], libc: ["glibc"] },
  "linux-x64-musl": { os: ["linux"], cpu: ["x64"], libc: ["musl"] },
  "win32-arm64": { os: ["win32"], cpu: ["arm64"] },
  "win32-x64": { os: ["win32"], cpu: ["x64"] },
};

const lock = JSON.parse(readFileSync(LOCK, "utf8"));
const biome = lock.packages["node_modules/@biomejs/biome"];
if (biome === undefined) throw new Error("@biomejs/biome is not in package-lock.json");
let added = 0;
for (const [name, version] of Object.entries(biome.optionalDependencies ?? {})) {
  const key = `node_modules/${name}`;
  const platform = PLATFORMS[name.replace("@biomejs/cli-", "")];
  if (lock.packages[key] !== undefined || platform === undefined) continue;
  lock.packages[key] = {
    version,
    ...platform,
    dev: true,
    license: biome.license,
    optional: true,
    engines: biome.engines,
  };
  added++;
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))),
);
writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: ${added} platform entr${added === 1 ? "y" : "ies"} of @biomejs/biome added`);
