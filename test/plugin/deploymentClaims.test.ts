/**
 * The claims one deployment's provider processes share (a stack moved to the plugin without an alias: the
 * dynamic host's delete must see the plugin's adoption): what one process adds, another reads; the folder is
 * this user's only; removing old files never stops the sharing.
 */
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

describe("the deployment's shared folder", () => {
  it("is in this user's cache folder, never in the temporary folder every user shares", () => {
    expect(sharedFolder({ XDG_CACHE_HOME: "/home/dev/.cache-x" })).toBe(
      "/home/dev/.cache-x/pulumi-shipping-webhooks/deployments",
    );
    expect(sharedFolder({})).toBe(join(homedir(), ".cache", "pulumi-shipping-webhooks", "deployments"));
    expect(sharedFolder({ XDG_CACHE_HOME: "" }).startsWith(tmpdir())).toBe(false);
  });

  /** Ways another user's folder, or a folder others may write, stands where the shared folder goes. */
  const spoiled: Array<[string, (path: string) => void]> = [
    ["others may write it (0777)", (path) => chmodSync(path, 0o777)],
  ];
  // Only root can give a folder to another user; this machine's CI runs as root.
  if (process.getuid?.() === 0)
    spoiled.push(["another user made it first", (path) => chownSync(path, 65534, 65534)]);
  it.each(spoiled)(
    "is not used when %s: nothing is shared, and a warning names the folder, what is off and the fix",
    (_what, spoil) => {
      const folder = join(dir, "deployments");
      mkdirSync(folder, { mode: 0o700 });
      spoil(folder);
      const warnings: string[] = [];
      setWarningSink((text) => warnings.push(text));
      try {
        expect(deploymentOf(["node", "plugin", "127.0.0.1:40123"], folder)).toBeUndefined();
      } finally {
        setWarningSink((text) => process.stderr.write(`${text}\n`));
      }
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(`${folder} is not a folder of this user's that only this user may write`);
      expect(warnings[0]).toContain("one hook per shop across providers");
      expect(warnings[0]).toContain(`chmod 700 ${folder}`);
    },
  );

  it("is used, with no warning, when it is this user's own (mode 0700)", () => {
    const folder = join(dir, "deployments");
    const warnings: string[] = [];
    setWarningSink((text) => warnings.push(text));
    try {
      const deployment = deploymentOf(["node", "plugin", "127.0.0.1:40123"], folder);
      expect(deployment?.file("claims").startsWith(`${folder}/`)).toBe(true);
    } finally {
      setWarningSink((text) => process.stderr.write(`${text}\n`));
    }
    expect(warnings).toEqual([]);
  });

  it("on Windows, where no folder is taken as private, the warning says to alias a move instead of a chmod", () => {
    const text = sharingOff("C:\\Users\\dev\\.cache\\pulumi-shipping-webhooks\\deployments", "win32");
    expect(text).toContain("on Windows no folder is");
    expect(text).toContain("Give such a move its alias");
    expect(text).not.toContain("chmod");
  });
});
