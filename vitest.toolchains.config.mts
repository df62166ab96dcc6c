import { defineConfig } from "vitest/config";

/**
 * The newest-pair stage (scripts/newest-pair.sh, npm run test:newest): the tests that must hold on Node.js 24
 * with the newest @pulumi/pulumi and Pulumi CLI (with its language host: the README's programs and the
 * examples as project folders; the provider plugin's lifecycle and import), plus the upgrade path between that
 * pair and the project's.
 * (pnpm and yarn are tested by npm test, on the project's pair, to keep this stage within its time budget.)
 */
export default defineConfig({
  test: {
    name: "newest-pair",
    include: [
      "test/docs/readme.official.test.ts",
      "test/docs/examples.official.test.ts",
      "test/lifecycle/lifecycle.e2e.test.ts",
      "test/packaging/consumer.packages.test.ts",
      // The provider plugin on Node 24 and SDK 3.270 (its gRPC files come from the installed @pulumi/pulumi):
      // its lifecycle through a TypeScript program, and `pulumi import` by id.
      "test/plugin/lifecycle.plugin.test.ts",
      "test/plugin/import.plugin.test.ts",
      // The files of no other project (vitest.config.mts names the suffixes): the upgrade path.
      "test/**/*.newest.test.ts",
    ],
    // The official-path files' packages, packed and installed once (test/support/globalSetup.ts).
    globalSetup: ["test/support/globalSetup.ts"],
    testTimeout: 600_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});
