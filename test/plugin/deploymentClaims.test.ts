/**
 * The claims one deployment's provider processes share (a stack moved to the plugin without an alias: the
 * dynamic host's delete must see the plugin's adoption): what one process adds, another reads; the folder is
 * this user's only; removing old files never stops the sharing.
 */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DeploymentClaims, privateFolder, removeStale } from "../../provider/facts/deploymentClaims";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "claims-test-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("DeploymentClaims", () => {
  it("reads what another process of the deployment added to the file, also after it grew", () => {
    const file = join(dir, "deployment.claims");
    const plugin = new DeploymentClaims(file);
    const dynamicHost = new DeploymentClaims(file);
    expect(dynamicHost.apisOf(7)).toEqual([]);
    plugin.add("https://api.example.com", 7);
    expect(dynamicHost.apisOf(7)).toEqual(["https://api.example.com"]);
    writeFileSync(file, '["https://api.exa', { flag: "a" }); // another process's append, cut short
    plugin.add("https://other.example.com", 7);
    // The cut line is no claim, and the claim appended after it is not lost with it.
    expect(dynamicHost.apisOf(7)).toEqual(["https://api.example.com", "https://other.example.com"]);
  });
});

describe("privateFolder", () => {
  it.each([
    ["a folder it makes", (path: string) => path, true],
    [
      "an existing folder of mode 0700",
      (path: string) => {
        mkdirSync(path, { mode: 0o700 });
        return path;
      },
      true,
    ],
    [
      "a folder others may write (0777)",
      (path: string) => {
        mkdirSync(path);
        chmodSync(path, 0o777);
        return path;
      },
      false,
    ],
    [
      "a folder others may read (0755)",
      (path: string) => {
        mkdirSync(path);
        chmodSync(path, 0o755);
        return path;
      },
      false,
    ],
    [
      "a symbolic link to a folder",
      (path: string) => {
        const real = `${path}-real`;
        mkdirSync(real, { mode: 0o700 });
        symlinkSync(real, path);
        return path;
      },
      false,
    ],
    [
      "a file",
      (path: string) => {
        writeFileSync(path, "");
        return path;
      },
      false,
    ],
  ])("%s: shared %s", (_what, prepare, shared) => {
    const path = prepare(join(dir, "claims"));
    expect(privateFolder(path) !== undefined).toBe(shared);
  });
});

describe("removeStale", () => {
  it("removes the files of old deployments, keeps new ones, and goes past an entry it cannot stat", () => {
    const old = join(dir, "old.claims");
    const fresh = join(dir, "fresh.claims");
    writeFileSync(old, "");
    writeFileSync(fresh, "");
    const dayAndMore = new Date(Date.now() - 25 * 60 * 60_000);
    utimesSync(old, dayAndMore, dayAndMore);
    symlinkSync(join(dir, "gone"), join(dir, "dangling.claims"));
    removeStale(dir);
    expect([existsSync(old), existsSync(fresh)]).toEqual([false, true]);
    expect(() => removeStale(join(dir, "no-such-folder"))).not.toThrow();
  });
});
