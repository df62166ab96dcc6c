import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * test/e2e/engineUnreachable.test.ts gives an inline program an engine address where nothing listens, on
 * purpose; the SDK's own calls to it then reject unhandled. Those, and only those (the socket's name carries
 * this marker, test/support/unreachableEngine.ts), are not errors of the run. (A TypeScript import of that
 * module from this ESM config loads it as CommonJS, with a warning.)
 */
const UNREACHABLE_ENGINE_MARKER = "no-engine-listens-here";

/**
 * Files at once in `npm test` (the fast, official and engine projects share them) and in each CI stage. The
 * machine has 2 cores; the engine and official files wait on the CLI, npm and loopback HTTP much of the time,
 * so two at once finish sooner than one (CONTRIBUTING.md, "Tests", has the measurements).
 */
const WORKERS = 2;

/**
 * npm test's engine tests: the fixed-seed explorer, one engine test per operation and refusal kind
 * (test/engine), and what only the engine shows on the user's paths of review and drift. The other engine
 * tests run in named CI stages (the projects below, .ci/run).
 */
const ENGINE_IN_NPM_TEST = [
  "test/explorer/**/*.test.ts",
  "test/engine/**/*.test.ts",
  "test/e2e/preview-review.test.ts",
  "test/e2e/drift.test.ts",
  "test/e2e/secrets.test.ts",
];

/** The S3 state stage: versitygw, the s3:// backend and two CI runners on one bucket. */
const S3_STAGE = [
  "test/e2e/s3State.test.ts",
  "test/e2e/installVersitygw.test.ts",
  "test/reliability/runners.test.ts",
];
/** The fault stage: the fault matrix and SIGKILLs mid-`up` under skip checkpoints. */
const FAULTS_STAGE = ["test/reliability/faultMatrix.test.ts", "test/reliability/skipCheckpoints.test.ts"];
/** The package stage: the packed tarball installed with --omit=dev, and under pnpm and yarn. */
const PACKAGES_STAGE = ["test/package/consumer.test.ts", "test/package/packageManagers.test.ts"];

/** Limits of a project whose files start the Pulumi CLI or npm: generous, finite. */
function engineProject(
  name: string,
  include: string[],
  options: { exclude?: string[]; groupOrder?: number; globalSetup?: string } = {},
): TestProjectInlineConfiguration {
  return {
    test: {
      name,
      include,
      exclude: options.exclude ?? [],
      testTimeout: 600_000,
      hookTimeout: 60_000,
      maxWorkers: WORKERS,
      sequence: { groupOrder: options.groupOrder ?? 0 },
      ...(options.globalSetup === undefined ? {} : { globalSetup: [options.globalSetup] }),
    },
  };
}

/**
 * Longest first, so that two workers end together: the explorer, then the official path and the other
 * engine files, then the fast ones (vitest's own order is by project name, then by the last run's durations,
 * which a clean clone does not have).
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) =>
      spec.project.config.sequence.groupOrder * 10 +
      (spec.moduleId.includes("/test/explorer/") ? 0 : spec.project.name === "fast" ? 2 : 1);
    return sorted
      .map((spec, index) => ({ spec, index }))
      .sort((a, b) => rank(a.spec) - rank(b.spec) || a.index - b.index)
      .map(({ spec }) => spec);
  }
}

/**
 * `npm test` runs the projects fast, official and engine; each CI stage of .ci/run runs one of the others
 * (`npm run test:<stage>`); `vitest run` alone runs every project.
 */
export default defineConfig({
  test: {
    onUnhandledError: (error) =>
      `${error.message} ${String((error as { details?: unknown }).details)}`.includes(
        UNREACHABLE_ENGINE_MARKER,
      )
        ? false
        : undefined,
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        // Pure functions, the client and the provider against the simulator over loopback, the simulator,
        // property tests, the repository's tooling: seconds each, no Pulumi CLI.
        test: {
          name: "fast",
          include: [
            "test/unit/**/*.test.ts",
            "test/tooling/**/*.test.ts",
            "test/integration/**/*.test.ts",
            "test/simulator/**/*.test.ts",
            "test/property/**/*.test.ts",
            "test/package/render.test.ts",
            "test/reliability/errorSecrets.test.ts",
          ],
          testTimeout: 30_000,
          hookTimeout: 30_000,
          maxWorkers: WORKERS,
        },
      },
      // The user's path: project folders through the CLI's Node.js language host, the package installed once
      // per run from its tarball (support/globalSetup.ts).
      engineProject("official", ["test/official/**/*.test.ts"], {
        globalSetup: "test/official/support/globalSetup.ts",
      }),
      engineProject("engine", ENGINE_IN_NPM_TEST),
      // CI stages (.ci/run): npm run test:e2e, test:s3, test:faults, test:packages, test:plugin.
      engineProject(
        "e2e",
        ["test/e2e/**/*.test.ts", "test/reliability/**/*.test.ts", "test/package/**/*.test.ts"],
        {
          exclude: [
            ...ENGINE_IN_NPM_TEST,
            ...S3_STAGE,
            ...FAULTS_STAGE,
            ...PACKAGES_STAGE,
            "test/package/render.test.ts",
            "test/reliability/errorSecrets.test.ts",
          ],
          groupOrder: 1,
        },
      ),
      engineProject("s3", S3_STAGE, { groupOrder: 2 }),
      engineProject("faults", FAULTS_STAGE, { groupOrder: 3 }),
      engineProject("packages", PACKAGES_STAGE, { groupOrder: 4 }),
      // The provider plugin through the official CLI (npm run test:plugin): the package installed once per run
      // from its tarball, as for the official project.
      engineProject("plugin", ["test/plugin/**/*.test.ts"], {
        groupOrder: 5,
        globalSetup: "test/official/support/globalSetup.ts",
      }),
    ],
  },
});
