/**
 * The claims one deployment's provider processes share (a stack moved to the plugin without an alias: the
 * dynamic host's delete must see the plugin's adoption): what one process adds, another reads; the folder is
 * this user's only; removing old files never stops the sharing.
 */

import { spawnSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  DeploymentClaims,
  deploymentOf,
  privateFolder,
  removeStale,
  sharedFolder,
  sharingOff,
} from "../../provider/facts/deploymentClaims";
import { setWarningSink } from "../../provider/operations/warnings";

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

/** A row's preparation: a folder made at the path, then given `mode` (chmod, so the umask does not change it). */
function folderOfMode(mode: number): (path: string) => string {
  return (path) => {
    mkdirSync(path);
    chmodSync(path, mode);
    return path;
  };
}

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
    ["a folder others may write (0777)", folderOfMode(0o777), false],
    ["a folder others may read (0755)", folderOfMode(0o755), false],
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

describe("the deployment's shared folder", () => {
  it("is in this user's cache folder, never in the temporary folder every user shares", () => {
    expect(sharedFolder({ XDG_CACHE_HOME: "/home/dev/.cache-x" })).toBe(
      "/home/dev/.cache-x/pulumi-shipping-webhooks/deployments",
    );
    expect(sharedFolder({})).toBe(join(homedir(), ".cache", "pulumi-shipping-webhooks", "deployments"));
    // A relative XDG_CACHE_HOME is ignored (the XDG specification): processes in other folders would not meet.
    expect(sharedFolder({ XDG_CACHE_HOME: "cache" })).toBe(sharedFolder({}));
    expect(sharedFolder({ XDG_CACHE_HOME: "" })?.startsWith(tmpdir())).toBe(false);
  });

  /** What a deployment's process does with `folder`: whether it shares, and what it warned. */
  function sharing(folder: () => string | undefined) {
    const warnings: string[] = [];
    setWarningSink((text) => warnings.push(text));
    try {
      return { deployment: deploymentOf(["node", "plugin", "127.0.0.1:40123"], folder), warnings };
    } finally {
      setWarningSink((text) => process.stderr.write(`${text}\n`));
    }
  }

  /** Ways a folder that others may write or own stands where the shared folder goes, or above it. */
  const spoiled: Array<[string, (folder: string) => void]> = [
    ["others may write it (0777)", (folder) => chmodSync(folder, 0o777)],
    [
      "others may write a folder above it (0777, not sticky)",
      (folder) => chmodSync(join(folder, ".."), 0o777),
    ],
  ];
  // Only root can give a folder to another user; this machine's CI runs as root.
  if (process.getuid?.() === 0)
    spoiled.push(
      ["another user made it first", (folder) => chownSync(folder, 65534, 65534)],
      ["another user owns a folder above it", (folder) => chownSync(join(folder, ".."), 65534, 65534)],
    );
  it.each(spoiled)(
    "is not used when %s: nothing is shared, and a warning names the folder, what is off and the fix",
    (_what, spoil) => {
      const folder = join(dir, "cache", "deployments");
      mkdirSync(folder, { recursive: true, mode: 0o700 });
      spoil(folder);
      const { deployment, warnings } = sharing(() => folder);
      expect(deployment).toBeUndefined();
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(`${folder} is not a folder of this user's that only this user may write`);
      expect(warnings[0]).toContain("one hook per shop across providers");
      expect(warnings[0]).toContain(`chmod 700 ${folder}`);
    },
  );

  it("is used, with no warning, when it is this user's own (mode 0700), also below a sticky folder like /tmp", () => {
    const sticky = join(dir, "shared-tmp");
    mkdirSync(sticky);
    chmodSync(sticky, 0o1777);
    const folder = join(sticky, "deployments");
    const { deployment, warnings } = sharing(() => folder);
    expect(deployment?.file("claims").startsWith(`${folder}/`)).toBe(true);
    expect(warnings).toEqual([]);
  });

  it("without a cache folder (no home), shares nothing and says how to give it one", () => {
    const { deployment, warnings } = sharing(() => undefined);
    expect(deployment).toBeUndefined();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("there is no home folder or absolute XDG_CACHE_HOME");
    expect(warnings[0]).toContain("set XDG_CACHE_HOME to an absolute folder of yours");
  });

  it("warns of nothing on Windows, where no folder is ever taken as private (docs/safety.md says so)", () => {
    expect(
      sharingOff("C:\\Users\\dev\\.cache\\pulumi-shipping-webhooks\\deployments", "win32"),
    ).toBeUndefined();
    expect(sharingOff("/home/dev/.cache/pulumi-shipping-webhooks/deployments", "linux")).toContain(
      "chmod 700",
    );
  });

  // A container's user with no passwd entry and no HOME (`docker run --user 12345`): os.homedir() throws there.
  // Only root can become such a user; this machine's CI runs as root. The provider as npm test built it.
  it.runIf(process.getuid?.() === 0)(
    "loads in a process with no home, shares nothing and warns, instead of crashing the provider",
    () => {
      const runtime = join(__dirname, "..", "..", "dist", "provider", "runtime.js");
      const loaded = spawnSync(
        "setpriv",
        [
          "--reuid=54321",
          "--regid=54321",
          "--clear-groups",
          process.execPath,
          "-e",
          `require(${JSON.stringify(runtime)})`,
          "--",
          "plugin",
          "127.0.0.1:40123",
        ],
        { env: { PATH: process.env.PATH ?? "" }, encoding: "utf8", timeout: 30_000 },
      );
      expect(loaded.status, loaded.stderr).toBe(0);
      expect(loaded.stderr).toContain("there is no home folder or absolute XDG_CACHE_HOME");
    },
  );
});
