/**
 * `npm run test:mutants`: does each pure rule have tests of its own that notice when the rule changes? For
 * each mutant (one exact piece of a rule's source and what it becomes), a copy of the sources with that change
 * runs the table files among the fast tests of the rule's behaviour folder (test/<behaviour>/, CONTRIBUTING.md
 * "Tests"). The mutant must fail at least one test there (a failed assertion, not a file that cannot load),
 * and the copy without any change must pass every file the folder's mutants run. Prints a table and the time;
 * exits 1 when a mutant survives or the unchanged copy fails.
 */
import { spawn } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { runCommand } from "./lib/runCommand";
import { MUTANTS, type Mutant } from "./mutantList";

const ROOT = resolve(__dirname, "..", "..");
/** What a copy holds: the sources and the test configuration (node_modules is linked, not copied). */
const COPIED = ["contract", "provider", "simulator", "scripts", "test", "examples", "templates", "docs"];
const COPIED_FILES = ["package.json", "tsconfig.json", "vitest.config.mts", "README.md", "CONTRIBUTING.md"];
/** Mutant runs side by side (the machine has 2 cores, as vitest.config.mts says). */
const RUNS_AT_ONCE = 2;
/** One run of a folder's fast tests, on a loaded 2-core machine. */
const RUN_DEADLINE_MS = 10 * 60_000;

/** A copy of the sources under .tmp/mutants, with `mutant` applied (none: as they are). */
function copyWith(mutant: Mutant | undefined, index: number): string {
  const dir = join(ROOT, ".tmp", "mutants", `${process.pid}-${index}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const part of COPIED) cpSync(join(ROOT, part), join(dir, part), { recursive: true });
  for (const file of COPIED_FILES) cpSync(join(ROOT, file), join(dir, file));
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  symlinkSync(join(ROOT, "dist"), join(dir, "dist"));
  if (mutant !== undefined) {
    const path = join(dir, mutant.file);
    const source = readFileSync(path, "utf8");
    if (source.split(mutant.from).length !== 2)
      throw new Error(`${mutant.file}: "${mutant.from}" must occur exactly once (was the rule changed?)`);
    writeFileSync(path, source.replace(mutant.from, mutant.to));
  }
  return dir;
}

/** Runs fast test files in `dir`: how many failed, and whether any file failed to load. */
function runTests(
  dir: string,
  tests: readonly string[],
): Promise<{ failed: number; passed: number; loadErrors: number }> {
  const report = join(dir, "report.json");
  const args = ["node_modules/vitest/vitest.mjs", "run", "--project", "fast", ...tests, "--reporter=json"];
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [...args, `--outputFile=${report}`], { cwd: dir, stdio: "ignore" });
    const timer = setTimeout(() => child.kill("SIGKILL"), RUN_DEADLINE_MS);
    child.on("error", fail);
    child.on("close", () => {
      clearTimeout(timer);
      try {
        const json = JSON.parse(readFileSync(report, "utf8")) as {
          numFailedTests: number;
          numPassedTests: number;
          testResults: { assertionResults: unknown[]; status: string }[];
        };
        const loadErrors = json.testResults.filter(
          (r) => r.status === "failed" && r.assertionResults.length === 0,
        ).length;
        done({ failed: json.numFailedTests, passed: json.numPassedTests, loadErrors });
      } catch (error) {
        fail(
          new Error(`no report from vitest in ${dir} (killed after ${RUN_DEADLINE_MS} ms?)`, {
            cause: error,
          }),
        );
      }
    });
  });
}

/**
 * Runs `work` for each item, `RUNS_AT_ONCE` at a time; the results in the items' order. Each run is mostly
 * vitest starting up in its copy, which two do side by side in about the time of one.
 */
async function inTurns<T, R>(
  items: readonly T[],
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: RUNS_AT_ONCE }, lane));
  return results;
}

async function main(): Promise<number> {
  const started = Date.now();
  for (const mutant of MUTANTS) {
    const outside = mutant.tests.filter((test) => !test.startsWith(`${mutant.folder}/`));
    if (outside.length > 0)
      throw new Error(`${mutant.name}: ${outside.join(", ")} is not in ${mutant.folder}`);
  }
  const rows: string[] = ["| mutant | folder | tests failed | verdict |", "|---|---|---:|---|"];
  let bad = 0;
  const folders = [...new Set(MUTANTS.map((m) => m.folder))];
  const unchanged = await inTurns(folders, async (folder, i) => {
    // The unchanged copy runs every file a mutant of the folder runs.
    const tests = [...new Set(MUTANTS.filter((m) => m.folder === folder).flatMap((m) => m.tests))];
    const dir = copyWith(undefined, i);
    const run = await runTests(dir, tests);
    rmSync(dir, { recursive: true, force: true });
    return run;
  });
  for (const [i, folder] of folders.entries()) {
    const run = unchanged[i] ?? { failed: 1, passed: 0, loadErrors: 0 };
    const ok = run.failed === 0 && run.loadErrors === 0 && run.passed > 0;
    if (!ok) bad += 1;
    rows.push(
      `| (none) | ${folder} | ${run.failed} of ${run.failed + run.passed} | ${ok ? "passes" : "FAILS UNCHANGED"} |`,
    );
  }
  const runs = await inTurns(MUTANTS, async (mutant, i) => {
    const dir = copyWith(mutant, folders.length + i);
    const run = await runTests(dir, mutant.tests);
    rmSync(dir, { recursive: true, force: true });
    return run;
  });
  for (const [i, mutant] of MUTANTS.entries()) {
    const run = runs[i] ?? { failed: 0, passed: 0, loadErrors: 0 };
    const caught = run.failed > 0 && run.loadErrors === 0;
    if (!caught) bad += 1;
    const verdict = caught ? "caught" : run.loadErrors > 0 ? "a file did not load" : "SURVIVES";
    rows.push(
      `| ${mutant.name} | ${mutant.folder} | ${run.failed} of ${run.failed + run.passed} | ${verdict} |`,
    );
  }
  const seconds = Math.round((Date.now() - started) / 1000);
  rows.push("", `${MUTANTS.length} mutants, ${folders.length} unchanged runs, ${seconds} s`);
  process.stdout.write(`${rows.join("\n")}\n`);
  return bad === 0 ? 0 : 1;
}

runCommand("mutants", main);
