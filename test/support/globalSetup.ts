import { rmSync } from "node:fs";
import { type OfficialPackages, prepareOfficialPackages } from "./install";

/** What this setup uses of vitest's TestProject (vitest/node is ES-module only, these tests CommonJS). */
interface Provider {
  provide(key: "officialPackages", value: OfficialPackages): void;
}

/**
 * The official project's globalSetup (vitest.config.mts): packs the repository and installs its packages for
 * CommonJS and ES-module projects once, before the files run side by side, and gives them to the files
 * (`inject("officialPackages")` in install.ts). The tarball is removed when the run ends.
 */
export default async function setup(project: Provider): Promise<() => void> {
  const packages = await prepareOfficialPackages(["commonjs", "esm"]);
  project.provide("officialPackages", packages);
  return () => rmSync(packages.packDir, { recursive: true, force: true });
}
