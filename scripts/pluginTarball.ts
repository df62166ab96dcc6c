/**
 * Builds the tarball that `pulumi plugin install resource shipping <version> --file <tarball>` installs:
 * `pulumi-resource-shipping-v<version>-<os>-<arch>.tar.gz`, holding a PulumiPlugin.yaml (`runtime: nodejs`),
 * a package.json that depends on this package (packed into the tarball itself, so nothing unpublished is
 * fetched) and on `@pulumi/pulumi`, and the entry module that serves the plugin. The CLI unpacks it into its
 * plugin cache and runs `npm install` there; a program then finds the plugin by name and version.
 *
 *   npm run plugin:tarball [-- <output folder>]      (default: the repository folder)
 *
 * Run after `npm run build` (the npm script builds first).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const ROOT = join(__dirname, "..", "..");

/** The platform part of a plugin tarball's name, as the Pulumi CLI spells it. */
function platform(): string {
  const os = process.platform === "win32" ? "windows" : process.platform;
  const arch = process.arch === "x64" ? "amd64" : process.arch;
  return `${os}-${arch}`;
}

/** Builds the tarball into `outDir`; returns its path. */
function buildPluginTarball(outDir: string): string {
  const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    name: string;
    version: string;
    peerDependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  const staging = mkdtempSync(join(tmpdir(), "pulumi-resource-shipping-"));
  try {
    const packed = execFileSync("npm", ["pack", "--silent", "--pack-destination", staging], {
      cwd: ROOT,
      encoding: "utf8",
    })
      .trim()
      .split("\n")
      .at(-1);
    if (packed === undefined || packed === "") throw new Error("npm pack named no tarball");
    const sdk = manifest.devDependencies["@pulumi/pulumi"] ?? manifest.peerDependencies["@pulumi/pulumi"];
    const plugin = {
      name: "pulumi-resource-shipping",
      version: manifest.version,
      private: true,
      main: "index.js",
      dependencies: { [manifest.name]: `file:./${packed}`, "@pulumi/pulumi": sdk },
    };
    writeFileSync(join(staging, "package.json"), `${JSON.stringify(plugin, null, 2)}\n`);
    writeFileSync(join(staging, "PulumiPlugin.yaml"), "runtime: nodejs\n");
    writeFileSync(
      join(staging, "index.js"),
      `// pulumi-resource-shipping: serves the provider plugin of ${manifest.name}.\nrequire("${manifest.name}/plugin").serve();\n`,
    );
    const tarball = resolve(outDir, `pulumi-resource-shipping-v${manifest.version}-${platform()}.tar.gz`);
    execFileSync("tar", [
      "-czf",
      tarball,
      "-C",
      staging,
      "PulumiPlugin.yaml",
      "package.json",
      "index.js",
      packed,
    ]);
    return tarball;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

if (require.main === module) {
  process.stdout.write(`${buildPluginTarball(process.argv[2] ?? ROOT)}\n`);
}
