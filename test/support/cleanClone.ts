import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, lstatSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { REPO_ROOT } from "./engine";

/**
 * Copies the repository into `dest` as a fresh `git clone` of this checkout has it: the files git tracks,
 * plus new files it does not ignore (so uncommitted work is tried too), less deleted ones. No dist/, no
 * node_modules, no packed tarball.
 */
export function copyAsClone(dest: string): void {
  const listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: REPO_ROOT,
    encoding: "utf8",
    maxBuffer: 16 * 1024 * 1024,
  });
  for (const path of new Set(listed.split("\0"))) {
    const from = join(REPO_ROOT, path);
    if (path === "" || !existsSync(from) || !lstatSync(from).isFile()) continue;
    mkdirSync(dirname(join(dest, path)), { recursive: true });
    copyFileSync(from, join(dest, path));
  }
}
