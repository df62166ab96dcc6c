/**
 * The release workflow (.github/workflows/release.yml) runs only npm scripts the package has, publishes with
 * provenance, and attaches the plugin tarball under the name `pulumi plugin install --file` is given: a release
 * that breaks at its last step publishes half a release.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(__dirname, "..", "..");
const WORKFLOW = readFileSync(join(ROOT, ".github", "workflows", "release.yml"), "utf8");
const SCRIPTS = (
  JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }
).scripts;

describe("the release workflow", () => {
  it("runs only npm scripts the package defines", () => {
    const used = [...WORKFLOW.matchAll(/npm run ([\w:-]+)/g)].map((m) => m[1] ?? "");
    expect(used).toContain("plugin:tarball");
    expect(used.filter((name) => SCRIPTS[name] === undefined)).toEqual([]);
  });

  it("publishes with provenance, with the id-token permission it needs, on a tag naming the version", () => {
    expect(WORKFLOW).toMatch(/npm publish --provenance/);
    expect(WORKFLOW).toMatch(/id-token: write/);
    expect(WORKFLOW).toMatch(/tags: \["v\*"\]/);
    expect(WORKFLOW).toMatch(/"v\$version" != "\$GITHUB_REF_NAME"/);
  });

  it("attaches the tarball named as the plugin script writes it", () => {
    const script = readFileSync(join(ROOT, "scripts", "pluginTarball.ts"), "utf8");
    expect(script).toMatch(/pulumi-resource-shipping-v\$\{[^}]+\}-\$\{[^}]+\}\.tar\.gz/);
    expect(WORKFLOW).toMatch(/pulumi-resource-shipping-v\$version-linux-amd64\.tar\.gz/);
  });
});

describe("the plugin's download URL", () => {
  const schema = JSON.parse(readFileSync(join(ROOT, "provider", "plugin", "schema.json"), "utf8")) as {
    pluginDownloadURL: string;
    version: string;
  };
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    version: string;
    repository?: { url?: string };
  };

  it("names the GitHub repository of package.json, which the release workflow checks is the one releasing", () => {
    const repository = /^git\+https:\/\/github\.com\/([\w.-]+\/[\w.-]+)\.git$/.exec(
      pkg.repository?.url ?? "",
    )?.[1];
    expect(repository).toBeDefined();
    expect(schema.pluginDownloadURL).toBe(`github://api.github.com/${repository}`);
    expect(WORKFLOW).toContain('expected="github://api.github.com/$GITHUB_REPOSITORY"');
    expect(WORKFLOW).toContain('"git+https://github.com/$GITHUB_REPOSITORY.git"');
    // The check runs before anything is published.
    expect(WORKFLOW.indexOf("$GITHUB_REPOSITORY")).toBeLessThan(WORKFLOW.indexOf("npm publish"));
  });

  it("finds the tarballs the release attaches under the names and tag the engine asks a github:// source for", () => {
    // The engine (sdk/go/common/workspace/plugins.go, githubSource) asks release `v<version>` for
    // `pulumi-resource-<name>-v<version>-<GOOS>-<GOARCH>.tar.gz`.
    expect(schema.version).toBe(pkg.version);
    expect(WORKFLOW).toMatch(/built="release\/pulumi-resource-shipping-v\$version-linux-amd64\.tar\.gz"/);
    for (const platform of ["linux-arm64", "darwin-amd64", "darwin-arm64", "windows-amd64"])
      expect(WORKFLOW).toMatch(new RegExp(`for platform in [^;]*\\b${platform}\\b`));
    expect(WORKFLOW).toMatch(
      /cp "\$built" "release\/pulumi-resource-shipping-v\$version-\$platform\.tar\.gz"/,
    );
    expect(WORKFLOW).toMatch(/gh release create "\$GITHUB_REF_NAME" release\/\*\.tar\.gz/);
  });
});
