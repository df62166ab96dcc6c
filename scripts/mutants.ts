/**
 * `npm run test:mutants`: does each pure rule have tests of its own that notice when the rule changes? For
 * each mutant (one exact piece of a rule's source and what it becomes), a copy of the sources with that change
 * runs the fast tests of the rule's behaviour folder (test/<behaviour>/, CONTRIBUTING.md "Tests"). The mutant
 * must fail at least one test there (a failed assertion, not a file that cannot load), and the copy without
 * any change must pass them all. Prints a table; exits 1 when a mutant survives or the unchanged copy fails.
 */
import { spawn } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { runCommand } from "./lib/runCommand";

/** A change of one rule, and the behaviour folder whose tests must notice it. */
interface Mutant {
  readonly name: string;
  readonly file: string;
  readonly from: string;
  readonly to: string;
  readonly folder: string;
}

/** One mutant per pure rule: the callback URL, ownership ("is it ours?", "which shop?"), the create, one hook per shop. */
const MUTANTS: readonly Mutant[] = [
  {
    name: "URL rule accepts %7e (an encoded unreserved character)",
    file: "contract/callbackUrl.ts",
    from: "|7[0-9a]|7e)/i;",
    to: "|7[0-9a])/i;",
    folder: "test/callback-url",
  },
  {
    name: "ownership: a live subscription at another URL is still ours",
    file: "provider/rules/ownership.ts",
    from: "if (!isRecorded(live, recorded)) return",
    to: "if (false as boolean) return",
    folder: "test/ownership",
  },
  {
    name: "ownership: another entry's shop is taken for the recorded shop",
    file: "provider/rules/locateRule.ts",
    from: "if (identity !== undefined && isSameShop(identity, recorded)) return",
    to: "if (identity !== undefined) return",
    folder: "test/ownership",
  },
  {
    name: "create: a partner's subscription is overwritten without takeOver",
    file: "provider/rules/createRule.ts",
    from: 'return facts.takeOver ? "takeOver" : "refuse";',
    to: 'return "takeOver";',
    folder: "test/ownership",
  },
  {
    name: "one hook per shop: a second declarer passes",
    file: "provider/rules/oneHookPerShop.ts",
    from: "return first === declarer ? undefined : first;",
    to: "return undefined;",
    folder: "test/one-hook-per-shop",
  },
];

const ROOT = resolve(__dirname, "..", "..");
/** What a copy holds: the sources and the test configuration (node_modules is linked, not copied). */
const COPIED = ["contract", "provider", "simulator", "scripts", "test", "examples", "templates", "docs"];
const COPIED_FILES = ["package.json", "tsconfig.json", "vitest.config.mts", "README.md", "CONTRIBUTING.md"];
/** One folder's fast tests, on a loaded 2-core machine. */
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

/** Runs one folder's fast tests in `dir`: how many failed, and whether any file failed to load. */
function runFolder(
  dir: string,
  folder: string,
): Promise<{ failed: number; passed: number; loadErrors: number }> {
  const report = join(dir, "report.json");
  const args = ["node_modules/vitest/vitest.mjs", "run", "--project", "fast", folder, "--reporter=json"];
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

async function main(): Promise<number> {
  const rows: string[] = ["| mutant | folder | tests failed | verdict |", "|---|---|---:|---|"];
  let bad = 0;
  const folders = [...new Set(MUTANTS.map((m) => m.folder))];
  for (const [i, folder] of folders.entries()) {
    const dir = copyWith(undefined, i);
    const run = await runFolder(dir, folder);
    rmSync(dir, { recursive: true, force: true });
    const ok = run.failed === 0 && run.loadErrors === 0 && run.passed > 0;
    if (!ok) bad += 1;
    rows.push(
      `| (none) | ${folder} | ${run.failed} of ${run.failed + run.passed} | ${ok ? "passes" : "FAILS UNCHANGED"} |`,
    );
  }
  for (const [i, mutant] of MUTANTS.entries()) {
    const dir = copyWith(mutant, folders.length + i);
    const run = await runFolder(dir, mutant.folder);
    rmSync(dir, { recursive: true, force: true });
    const caught = run.failed > 0 && run.loadErrors === 0;
    if (!caught) bad += 1;
    const verdict = caught ? "caught" : run.loadErrors > 0 ? "a file did not load" : "SURVIVES";
    rows.push(
      `| ${mutant.name} | ${mutant.folder} | ${run.failed} of ${run.failed + run.passed} | ${verdict} |`,
    );
  }
  process.stdout.write(`${rows.join("\n")}\n`);
  return bad === 0 ? 0 : 1;
}

runCommand("mutants", main);
