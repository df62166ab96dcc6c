import { spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { describe, expect, it } from "vitest";
import { dist, REPO_ROOT } from "../support/engine";

/** `pulumi version` of a loaded machine, plus Node start. */
const ENSURE_DEADLINE_MS = 60_000;
const ENSURE_SCRIPT = join(REPO_ROOT, "dist", "scripts", "ensurePulumiCli.js");

/** The real CLI the rest of the suite uses. */
const realCli = () => realpathSync(dist.pulumiCli.requirePulumiCli().binary);

/** A folder `<tmp>/bin` holding `pulumi`: a link to `target`, or a stand-in printing `version`. */
function binWith(pulumi: { link: string } | { prints: string }): string {
  const bin = join(mkdtempSync(join(tmpdir(), "installed-cli-")), "bin");
  mkdirSync(bin);
  if ("link" in pulumi) symlinkSync(pulumi.link, join(bin, "pulumi"));
  else {
    writeFileSync(join(bin, "pulumi"), `#!/bin/sh\necho ${pulumi.prints}\n`);
    chmodSync(join(bin, "pulumi"), 0o755);
  }
  return bin;
}

/** process.env with `bin` first on PATH, PULUMI_HOME at `home` and no SHIPPING_PULUMI_ROOT. */
function envWith(bin: string, home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ""}` };
  env.PULUMI_HOME = home;
  delete env[dist.pulumiCli.PULUMI_ROOT_ENV];
  return env;
}

/**
 * process.env with PATH holding only `folders` (whatever the user has on PATH, such as their own CLI and its
 * plugin in ~/.pulumi/bin, is not there), PULUMI_HOME at a fresh folder and no SHIPPING_PULUMI_ROOT.
 */
function envWithOnly(...folders: string[]): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: folders.join(delimiter) };
  env.PULUMI_HOME = mkdtempSync(join(tmpdir(), "pulumi-home-"));
  delete env[dist.pulumiCli.PULUMI_ROOT_ENV];
  return env;
}

describe("an installed Pulumi CLI", () => {
  it("on PATH and fitting is used as it is: npm test prints the Node.js and the CLI it runs with, and builds nothing", () => {
    const bin = binWith({ link: realCli() });
    const emptyHome = mkdtempSync(join(tmpdir(), "pulumi-home-"));
    const run = spawnSync(process.execPath, [ENSURE_SCRIPT], {
      env: envWith(bin, emptyHome),
      encoding: "utf8",
      timeout: ENSURE_DEADLINE_MS,
    });
    expect(run.status, run.stderr).toBe(0);
    const [node, cli, ...rest] = run.stdout.trim().split("\n");
    expect(node).toBe(
      `Using Node.js ${process.version} at ${process.execPath} (package.json engines.node: >=20.18.1)`,
    );
    expect(cli).toMatch(
      new RegExp(
        `^Using Pulumi CLI v3\\.\\d+\\.\\d+ at ${bin}/pulumi \\(found on PATH; 3\\.181\\.0\\+ with pulumi-resource-pulumi-nodejs\\) and its Node\\.js language host /`,
      ),
    );
    expect(rest).toEqual([]);
    expect(existsSync(join(emptyHome, "versions"))).toBe(false);
  });

  it("is passed over, saying why, when too old for inline refresh and destroy, or without the plugin or the language host", () => {
    const old = binWith({ prints: "v3.180.0" });
    const home = mkdtempSync(join(tmpdir(), "pulumi-home-"));
    const built = join(dist.pulumiCli.builtCliRoot({ PULUMI_HOME: home }), "bin");
    mkdirSync(built, { recursive: true });
    symlinkSync(realCli(), join(built, "pulumi"));
    const lookup = dist.pulumiCli.findPulumiCli(envWith(old, home));
    expect(lookup.rejected).toEqual([
      `${old}/pulumi is v3.180.0; inline programs need 3.181.0 or newer (3.x) for refresh and destroy`,
    ]);
    expect(lookup.found?.source).toBe("built");
    expect(lookup.found?.reason).toContain(`passed over: ${old}/pulumi is v3.180.0`);

    const bare = binWith({ prints: "v3.259.0" });
    const noPlugin = dist.pulumiCli.findPulumiCli(envWithOnly(bare));
    expect(noPlugin.found).toBeUndefined();
    expect(noPlugin.rejected[0]).toBe(
      `${bare}/pulumi is v3.259.0 but has no pulumi-resource-pulumi-nodejs beside it or on PATH`,
    );
    // The same CLI with the plugin in another folder on PATH still needs its language host, to run a project.
    const pluginDir = binWith({ prints: "plugin" });
    renameSync(join(pluginDir, "pulumi"), join(pluginDir, dist.pulumiCli.DYNAMIC_PLUGIN));
    const noHost = dist.pulumiCli.findPulumiCli(envWithOnly(bare, pluginDir));
    expect(noHost.found).toBeUndefined();
    expect(noHost.rejected[0]).toMatch(
      new RegExp(
        `^${bare}/pulumi is v3\\.259\\.0 but has no Node\\.js language host \\(pulumi-language-nodejs\\) beside it or on PATH, so it cannot run a project folder; official installs ship it beside the CLI \\(here: copy .*/3\\.259\\.0/pulumi-language-nodejs beside it, as scripts/install-pulumi\\.sh does\\)$`,
      ),
    );
    // With a host on PATH too, it fits.
    const hostDir = binWith({ prints: "host" });
    renameSync(join(hostDir, "pulumi"), join(hostDir, dist.pulumiCli.LANGUAGE_HOST));
    const found = dist.pulumiCli.findPulumiCli(envWithOnly(bare, pluginDir, hostDir)).found;
    expect(found?.binary).toBe(join(bare, "pulumi"));
    expect(found?.languageHost).toBe(join(hostDir, dist.pulumiCli.LANGUAGE_HOST));
  });

  it("on PATH after a folder named pulumi on PATH (the official tarball unpacked into a PATH folder) is found, as the shell finds it", () => {
    const unpackedInto = mkdtempSync(join(tmpdir(), "local-bin-"));
    mkdirSync(join(unpackedInto, "pulumi"));
    const bin = binWith({ prints: "v3.259.0" });
    for (const plugin of [dist.pulumiCli.DYNAMIC_PLUGIN, dist.pulumiCli.LANGUAGE_HOST]) {
      writeFileSync(join(bin, plugin), "#!/bin/sh\n");
      chmodSync(join(bin, plugin), 0o755);
    }
    const lookup = dist.pulumiCli.findPulumiCli(envWithOnly(unpackedInto, bin));
    expect(lookup.rejected).toEqual([]);
    expect(lookup.found?.binary).toBe(join(bin, "pulumi"));
    expect(lookup.found?.version).toBe("v3.259.0");
  });

  it("named by SHIPPING_PULUMI_ROOT is the only candidate: one that does not fit fails with what to do", () => {
    const root = join(binWith({ prints: "v3.100.0" }), "..");
    const env = { ...process.env, [dist.pulumiCli.PULUMI_ROOT_ENV]: root };
    expect(() => dist.pulumiCli.requirePulumiCli(env)).toThrow(
      /pulumi is v3\.100\.0; inline programs need 3\.181\.0 .* Run scripts\/install-pulumi\.sh to build 3\.248\.0 .* or install a Pulumi CLI 3\.181\.0\+ with pulumi-resource-pulumi-nodejs beside it .* put it on PATH or set SHIPPING_PULUMI_ROOT to its folder\./,
    );
  });
});
