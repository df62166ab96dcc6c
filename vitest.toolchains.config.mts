import { defineConfig } from "vitest/config";

/**
 * The newest-pair stage (scripts/newest-pair.sh, npm run test:newest): the tests that must hold on Node.js 24
 * with the newest @pulumi/pulumi and Pulumi CLI (with its language host: the README's programs and the
 * examples as project folders), plus the upgrade path between that pair and the project's.
 * (pnpm and yarn are tested by npm test, on the project's pair, to keep this stage within its time budget.)
 */
export default defineConfig({
  test: {
    name: "newest-pair",
    include: [
      "test/official/readme.test.ts",
      "test/official/examples.test.ts",
      "test/e2e/lifecycle.test.ts",
      "test/package/consumer.test.ts",
      "test/toolchains/**/*.test.ts",
    ],
    // The official-path files' packages, packed and installed once (test/official/support/globalSetup.ts).
    globalSetup: ["test/official/support/globalSetup.ts"],
    testTimeout: 600_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});
