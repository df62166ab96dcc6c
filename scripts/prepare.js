#!/usr/bin/env node
/**
 * npm's `prepare` script: builds dist/ (`npm run build`) so that the package npm makes is complete. npm runs
 * it before `npm pack` and `npm publish`, after a plain `npm install` in this folder, and when a project
 * installs this package from a git URL (npm clones it, installs its devDependencies, runs `prepare`, packs).
 * Under `npm ci` it builds nothing: CI and a contributor build in the next step (`npm run build`, `npm start`,
 * `npm test`), so a clean install is not slowed by a build it would repeat. Output goes to stderr, so that
 * `npm pack --json` prints only its JSON on stdout.
 */
const { spawnSync } = require("node:child_process");

if (process.env.npm_command === "ci") {
  console.error("prepare: npm ci builds nothing; `npm run build` builds dist/");
  process.exit(0);
}
// One definition of the build: package.json's "build" script, through a shell so that Windows finds npm.cmd.
const build = spawnSync("npm run build", {
  shell: true,
  stdio: ["ignore", process.stderr, process.stderr],
});
process.exit(build.status ?? 1);
