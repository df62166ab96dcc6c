/**
 * The mutants of `npm run test:mutants` still fit the rules' sources: each piece a mutant changes occurs exactly
 * once in its file (a rule rewritten without its mutant would otherwise fail only the CI's mutants stage), and
 * each mutant's table files exist in its behaviour folder.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MUTANTS } from "../../scripts/mutantList";

const ROOT = join(__dirname, "..", "..");

describe("each mutant of npm run test:mutants", () => {
  it.each(MUTANTS.map((m) => [m.name, m] as const))("%s: its piece occurs once in its file", (_name, m) => {
    const source = readFileSync(join(ROOT, m.file), "utf8");
    expect(source.split(m.from).length - 1).toBe(1);
    expect(m.to).not.toBe(m.from);
  });

  it.each(MUTANTS.map((m) => [m.name, m] as const))("%s: its table files are in its folder", (_name, m) => {
    for (const test of m.tests) {
      expect(test.startsWith(`${m.folder}/`)).toBe(true);
      expect(existsSync(join(ROOT, test))).toBe(true);
    }
  });
});
