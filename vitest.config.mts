import { defineConfig } from "vitest/config";
import { UNREACHABLE_ENGINE_MARKER } from "./test/support/unreachableEngine.js";

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
            "test/e2e/**/*.test.ts",
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
