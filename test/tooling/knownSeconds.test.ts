/**
 * The slowest files that vitest.config.mts starts first in every stage (`KNOWN_SECONDS`): each one it names
 * must exist, or the list has gone stale and a renamed slow file may start last again.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/engine";

describe("the slowest files started first", () => {
  it("names only test files that exist, each of a kind a stage runs", () => {
    const config = readFileSync(join(REPO_ROOT, "vitest.config.mts"), "utf8");
    const list = config.slice(
      config.indexOf("const KNOWN_SECONDS"),
      config.indexOf("};", config.indexOf("const KNOWN_SECONDS")),
    );
    const files = [...list.matchAll(/"(test\/[^"]+\.test\.ts)": \d+/g)].map((m) => m[1] as string);
    expect(files.length).toBeGreaterThan(10);
    expect(files.filter((file) => !existsSync(join(REPO_ROOT, file)))).toEqual([]);
    expect(
      files.filter((file) => !/\.(official|engine|cli|e2e|s3|faults|packages|plugin)\.test\.ts$/.test(file)),
    ).toEqual([]);
  });
});
