import { defineConfig } from "vitest/config";

/**
 * test/e2e/engineUnreachable.test.ts gives an inline program an engine address where nothing listens, on
 * purpose; the SDK's own calls to it then reject unhandled. Those, and only those (the socket's name carries
 * this marker, test/support/unreachableEngine.ts), are not errors of the run. (A TypeScript import of that
 * module from this ESM config loads it as CommonJS, with a warning.)
 */
const UNREACHABLE_ENGINE_MARKER = "no-engine-listens-here";

export default defineConfig({
  test: {
    onUnhandledError: (error) =>
      `${error.message} ${String((error as { details?: unknown }).details)}`.includes(
        UNREACHABLE_ENGINE_MARKER,
      )
        ? false
        : undefined,
    projects: [
      {
        test: {
          name: "fast",
          include: [
            "test/unit/**/*.test.ts",
            "test/tooling/**/*.test.ts",
            "test/integration/**/*.test.ts",
            "test/simulator/**/*.test.ts",
            "test/property/**/*.test.ts",
          ],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        // Each engine test starts the Pulumi CLI several times: one file at a time, generous (finite) limits.
        test: {
          name: "e2e",
          include: [
            "test/official/**/*.test.ts",
            "test/e2e/**/*.test.ts",
            "test/engine/**/*.test.ts",
            "test/reliability/**/*.test.ts",
            "test/package/**/*.test.ts",
            "test/explorer/**/*.test.ts",
          ],
          testTimeout: 600_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
