import { spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type StandInGo, standInGo } from "../support/standInGo";

/**
 * scripts/install-pulumi.sh and `node dist/scripts/ensurePulumiCli.js` (what npm test, the demo and CI run
 * first) on the path where no installed CLI fits, with a stand-in `go` that records its calls and writes a
 * CLI that prints the version the build was asked to embed. The real compile from the Go module proxy (about
 * 6 minutes cold) is proven where it happens for real: the `pulumi cli` stage of `.ci/run` always builds
 * 3.248.0 with this script and fails unless the CLI reports v3.248.0 (the script's own last check), and
 * scripts/newest-pair.sh builds 3.259.0 the same way. So npm test never compiles a CLI when one fits.
 */
const REPO_ROOT = resolve(__dirname, "..", "..");
const SCRIPT = join(REPO_ROOT, "scripts", "install-pulumi.sh");
const ENSURE = join(REPO_ROOT, "dist", "scripts", "ensurePulumiCli.js");
const PLUGIN = "pulumi-resource-pulumi-nodejs";
const CLI_PACKAGE = "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi";
/** Node start and a few shell commands on a loaded machine. */
const RUN_DEADLINE_MS = 30_000;

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
function tempFolder(prefix: string): string {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  folders.push(folder);
  return folder;
}

const HOST = "pulumi-language-nodejs";

/** A folder of stand-in language hosts (`<version>/pulumi-language-nodejs`), as ../shared/pulumi-langhost is. */
function languageHosts(...versions: string[]): string {
  const folder = tempFolder("langhosts-");
  for (const version of versions) {
    mkdirSync(join(folder, version));
    writeFileSync(join(folder, version, HOST), `#!/bin/sh\necho host ${version}\n`);
    chmodSync(join(folder, version, HOST), 0o555);
  }
  return folder;
}

/**
 * The environment of a machine whose only Go is `go` (first on PATH), whose PULUMI_HOME is empty and whose
 * prebuilt language hosts (SHIPPING_LANGHOST_DIR) are stand-ins of 3.248.0 and 3.259.0.
 */
function machine(go: StandInGo, extraPath: string[] = []): { env: NodeJS.ProcessEnv; home: string } {
  const home = tempFolder("pulumi-home-");
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: [...extraPath, go.bin, process.env.PATH ?? ""].join(delimiter),
    PULUMI_HOME: home,
    SHIPPING_LANGHOST_DIR: languageHosts("3.248.0", "3.259.0"),
  };
  delete env.SHIPPING_PULUMI_ROOT;
  return { env, home };
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv) {
  const result = spawnSync(command, args, { env, encoding: "utf8", timeout: RUN_DEADLINE_MS });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** A folder with a `pulumi` that prints `version`: an installed CLI that does not fit. */
function installedCli(version: string): string {
  const bin = tempFolder("old-pulumi-");
  writeFileSync(join(bin, "pulumi"), `#!/bin/sh\necho ${version}\n`);
  chmodSync(join(bin, "pulumi"), 0o755);
  return bin;
}

describe("scripts/install-pulumi.sh with a stand-in go", () => {
  it("is run by ensurePulumiCli when no installed CLI fits: builds 3.248.0 pinned by its wrapper module, copies the plugin and the language host, then is not needed", () => {
    const go = standInGo();
    const old = installedCli("v3.180.0");
    const { env, home } = machine(go, [old]);
    const root = join(home, "versions", "3.248.0");

    const first = run(process.execPath, [ENSURE], env);
    expect(first.status, first.output).toBe(0);
    expect(first.output).toContain(
      `No installed Pulumi CLI fits (${old}/pulumi is v3.180.0; inline programs need 3.181.0 or newer (3.x) for refresh and destroy; ${root}/bin/pulumi does not exist): building 3.248.0.`,
    );
    expect(first.output).toContain("modules fetched: 2");
    expect(first.output).toContain(`Pulumi CLI v3.248.0 installed at ${root}/bin/pulumi`);
    expect(first.output).toContain(`Using Pulumi CLI v3.248.0 at ${root}/bin/pulumi (built by`);

    const module = join(REPO_ROOT, "scripts", "pulumi-cli");
    const [version, list, build, ...others] = go.calls();
    expect(others).toEqual([]);
    expect(version?.args).toEqual(["env", "GOVERSION"]);
    expect(list).toEqual({
      args: ["list", "-x", "-deps", CLI_PACKAGE],
      cwd: module,
      env: { CGO_ENABLED: "", GOTOOLCHAIN: "local", GOFLAGS: "-mod=readonly" },
    });
    expect(build?.cwd).toBe(module);
    expect(build?.env).toEqual({ CGO_ENABLED: "0", GOTOOLCHAIN: "local", GOFLAGS: "-mod=readonly" });
    expect(build?.args).toEqual([
      "build",
      "-trimpath",
      "-tags",
      "osusergo,grpcnotrace",
      "-ldflags",
      "-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v3.248.0",
      "-o",
      `${root}/bin/pulumi.partial`,
      CLI_PACKAGE,
    ]);
    expect(readdirSync(join(root, "bin")).sort()).toEqual(["pulumi", HOST, PLUGIN]);
    expect(readFileSync(join(root, "bin", PLUGIN), "utf8")).toBe(
      readFileSync(join(REPO_ROOT, "node_modules", "@pulumi", "pulumi", PLUGIN), "utf8"),
    );
    expect(readFileSync(join(root, "bin", HOST), "utf8")).toBe(
      readFileSync(join(env.SHIPPING_LANGHOST_DIR as string, "3.248.0", HOST), "utf8"),
    );

    const again = run(process.execPath, [ENSURE], env);
    expect(again.status, again.output).toBe(0);
    const [node, cli, ...rest] = again.output.trim().split("\n");
    expect(node).toBe(
      `Using Node.js ${process.version} at ${process.execPath} (package.json engines.node: >=20.18.1)`,
    );
    expect(cli).toMatch(new RegExp(`^Using Pulumi CLI v3\\.248\\.0 at ${root}/bin/pulumi \\(built by`));
    expect(cli).toContain(`and its Node.js language host ${root}/bin/${HOST}`);
    expect(rest).toEqual([]);
    expect(run("bash", [SCRIPT], env).output).toContain("nothing to do");
    expect(go.calls()).toHaveLength(3);
  });

  it("builds another version from its own wrapper module into its own folder", () => {
    const go = standInGo();
    const { env, home } = machine(go);
    const result = run("bash", [SCRIPT, "3.259.0"], env);
    expect(result.status, result.output).toBe(0);
    const build = go.calls().find((call) => call.args[0] === "build");
    expect(build?.cwd).toBe(join(REPO_ROOT, "scripts", "pulumi-cli-3.259.0"));
    expect(build?.args).toContain(
      "-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v3.259.0",
    );
    expect(result.output).toContain(`Pulumi CLI v3.259.0 installed at ${home}/versions/3.259.0/bin/pulumi`);
    expect(readFileSync(join(home, "versions", "3.259.0", "bin", HOST), "utf8")).toBe(
      "#!/bin/sh\necho host 3.259.0\n",
    );
  });

  it("puts the language host beside a CLI built before it was needed, and fails naming the fix when none is there", () => {
    const go = standInGo();
    const { env, home } = machine(go);
    expect(run("bash", [SCRIPT], env).status).toBe(0);
    const host = join(home, "versions", "3.248.0", "bin", HOST);
    rmSync(host);
    const again = run("bash", [SCRIPT], env);
    expect(again.status, again.output).toBe(0);
    expect(again.output).toContain(`Copying the Node.js language host ${HOST} beside the CLI`);
    expect(existsSync(host)).toBe(true);

    rmSync(host);
    const missing = run("bash", [SCRIPT], { ...env, SHIPPING_LANGHOST_DIR: tempFolder("no-hosts-") });
    expect(missing.status).toBe(1);
    expect(missing.output).toMatch(
      /no Node\.js language host for the Pulumi CLI v3\.248\.0 at .*\/3\.248\.0\/pulumi-language-nodejs/,
    );
    expect(missing.output).toContain("set SHIPPING_LANGHOST_DIR");
    expect(go.calls().filter((call) => call.args[0] === "build")).toHaveLength(1);
  });

  it("refuses a Go older than the wrapper module's go directive (1.25.11; GOTOOLCHAIN=local), naming both, and writes nothing", () => {
    for (const goVersion of ["go1.24.3", "go1.25.10"]) {
      const go = standInGo({ goVersion });
      const { env, home } = machine(go);
      const result = run("bash", [SCRIPT], env);
      expect(result.status).toBe(1);
      expect(result.output).toContain(
        `Go 1.25.11 or newer is needed to build the Pulumi CLI v3.248.0 (${REPO_ROOT}/scripts/pulumi-cli/go.mod); found ${goVersion}.`,
      );
      expect(go.calls().map((call) => call.args[0])).toEqual(["env"]);
      expect(existsSync(join(home, "versions"))).toBe(false);
    }
  });

  it("fails naming the build when go build fails, and ensurePulumiCli fails with it", () => {
    const go = standInGo({ failBuild: true });
    const { env, home } = machine(go);
    const result = run(process.execPath, [ENSURE], env);
    expect(result.status).toBe(1);
    expect(result.output).toContain("install-pulumi: go build of the Pulumi CLI failed");
    expect(result.output).toContain("scripts/install-pulumi.sh failed; see its message above");
    expect(existsSync(join(home, "versions", "3.248.0", "bin", "pulumi"))).toBe(false);
  });

  it("without Go, says how to get a CLI: any official one from 3.181 on, on PATH or named by its folder", () => {
    const home = tempFolder("pulumi-home-");
    const result = run("bash", [SCRIPT], { ...process.env, PATH: "/usr/bin:/bin", PULUMI_HOME: home });
    expect(result.status).toBe(1);
    expect(result.output).toMatch(/no Pulumi CLI v3\.248\.0 at .* and no Go toolchain to build one/);
    expect(result.output).toContain("any 3.x from 3.181 on fits");
    expect(result.output).toContain("or install Go 1.25.11 or newer and run this script again");
    expect(result.output).toMatch(
      /SHIPPING_PULUMI_ROOT to its folder \(the one holding bin\/pulumi, or pulumi\s+itself/,
    );
    expect(result.output).not.toContain("version 3.248.0");
  });
});
