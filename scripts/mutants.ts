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

/** A change of one rule, the behaviour folder whose tests must notice it, and which of its fast files run. */
interface Mutant {
  readonly name: string;
  readonly file: string;
  readonly from: string;
  readonly to: string;
  readonly folder: string;
  /** The folder's fast test files that run against the mutant (each under `folder`): its tables. */
  readonly tests: readonly string[];
}

/**
 * The fast files of each folder that state its rule row by row. A mutant runs these, not the whole folder: the
 * folder's other fast files (a simulator behind the provider, 10,000 generated inputs) take most of a run,
 * and a rule's change must show in its table.
 */
const CALLBACK_URL = {
  folder: "test/callback-url",
  tests: ["test/callback-url/checkInputs.test.ts", "test/callback-url/callbackUrl.test.ts"],
} as const;
const OWNERSHIP = {
  folder: "test/ownership",
  tests: ["test/ownership/ownership.read.test.ts", "test/ownership/ownership.writes.test.ts"],
} as const;
const ONE_HOOK_PER_SHOP = {
  folder: "test/one-hook-per-shop",
  tests: ["test/one-hook-per-shop/oneHookPerShop.table.test.ts"],
} as const;

/**
 * Mutants of each pure rule: the callback URL, ownership ("is it ours?", "which shop?", the pin, the account),
 * the create, one hook per shop. Each changes one piece of the rule as an outside review did; a survivor is a
 * row missing from the rule's table.
 */
const MUTANTS: readonly Mutant[] = [
  {
    name: "URL rule accepts %7e (an encoded unreserved character)",
    file: "contract/callbackUrl.ts",
    from: "|7[0-9a]|7e)/i;",
    to: "|7[0-9a])/i;",
    ...CALLBACK_URL,
  },
  {
    name: "URL rule refuses port 65535",
    file: "contract/callbackUrl.ts",
    from: "Number(port) > LARGEST_PORT)",
    to: "Number(port) >= LARGEST_PORT)",
    ...CALLBACK_URL,
  },
  {
    name: "URL rule refuses the HTTPS port written out (:443)",
    file: "contract/callbackUrl.ts",
    from: 'const expected = port === undefined || port === HTTPS_DEFAULT_PORT ? "" : port;',
    to: 'const expected = port ?? "";',
    ...CALLBACK_URL,
  },
  {
    name: "URL rule accepts a host label of 64 characters",
    file: "contract/callbackUrl.ts",
    from: "/^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?(\\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*\\.?$/",
    to: "/^[a-z0-9_]([a-z0-9_-]{0,62}[a-z0-9_])?(\\.[a-z0-9_]([a-z0-9_-]{0,62}[a-z0-9_])?)*\\.?$/",
    ...CALLBACK_URL,
  },
  {
    name: 'URL rule accepts "%" with one hex digit (%4x)',
    file: "contract/callbackUrl.ts",
    from: "/%(?![0-9a-f]{2})/i",
    to: "/%(?![0-9a-f])/i",
    ...CALLBACK_URL,
  },
  {
    name: "ownership: a live subscription at another URL is still ours",
    file: "provider/rules/ownership.ts",
    from: "if (!isRecorded(live, recorded)) return",
    to: "if (false as boolean) return",
    ...OWNERSHIP,
  },
  {
    name: "ownership: another entry's shop is taken for the recorded shop",
    file: "provider/rules/locateRule.ts",
    from: "if (identity !== undefined && isSameShop(identity, recorded)) return",
    to: "if (identity !== undefined) return",
    ...OWNERSHIP,
  },
  {
    name: "ownership: shop 1 of another account is the recorded shop 1",
    file: "provider/rules/recorded.ts",
    from: "identity.shopId === recorded.shopId &&\n    (identity.accountId === undefined ||",
    to: "identity.shopId === recorded.shopId &&\n    (true ||",
    ...OWNERSHIP,
  },
  {
    name: "ownership: a delete unsubscribes a hook declared under another key of the same shop",
    file: "provider/rules/ownership.ts",
    from: "if (identity !== undefined && theirs !== undefined && isSameShop(identity, theirs)) return true;",
    to: "if (false as boolean) return true;",
    ...OWNERSHIP,
  },
  {
    name: "ownership: a pinned shop emptied by this deployment (not listed empty) fails its pin",
    file: "provider/rules/ownershipFacts.ts",
    from: "(shop.listing.length === 0 || shop.listedEmpty)",
    to: "shop.listedEmpty",
    ...OWNERSHIP,
  },
  {
    name: "create: a partner's subscription is overwritten without takeOver",
    file: "provider/rules/createRule.ts",
    from: 'return facts.takeOver ? "takeOver" : "refuse";',
    to: 'return "takeOver";',
    ...OWNERSHIP,
  },
  {
    name: "create: an opted-in overwrite is not said to be a takeover",
    file: "provider/rules/createRule.ts",
    from: 'return { kind: "post", live, takenOver: true };',
    to: 'return { kind: "post", live };',
    ...OWNERSHIP,
  },
  {
    name: "create: a refusal of a kept subscription does not name it",
    file: "provider/rules/createRule.ts",
    from: 'return { kind: "refuse", kept: live };',
    to: 'return { kind: "refuse" };',
    ...OWNERSHIP,
  },
  {
    name: "one hook per shop: a second declarer passes",
    file: "provider/rules/oneHookPerShop.ts",
    from: "return first === declarer ? undefined : first;",
    to: "return undefined;",
    ...ONE_HOOK_PER_SHOP,
  },
  {
    name: "one hook per shop: the same shop_id at two APIs is one shop",
    file: "provider/facts/declarations.ts",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the mutated source is a template literal
    from: "`${target.api}\\u0000${shopId}`",
    to: "shopId",
    ...ONE_HOOK_PER_SHOP,
  },
];

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
