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
