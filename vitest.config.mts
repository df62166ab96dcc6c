import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * test/program/engineUnreachable.e2e.test.ts gives an inline program an engine address where nothing listens, on
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
 * Tests live by behaviour, `test/<behaviour>/` (CONTRIBUTING.md, "Tests"); where a file runs is said by the
 * last word of its name before `.test.ts`:
 *
 * - `<name>.test.ts` (also `<name>.property.test.ts`, `<name>.table.test.ts`): the fast project, in `npm test`;
 * - `<name>.official.test.ts`: official, in `npm test` (project folders through the CLI's language host);
 * - `<name>.engine.test.ts`: engine, in `npm test` (inline programs through the real CLI);
 * - `<name>.cli.test.ts`: a guarantee's sequence through the CLI in project folders, as official does, in the CI
 *   stage cli (`npm test` holds the same rule's table, integration and engine tests, and keeps to 10 minutes);
 * - `<name>.e2e.test.ts`, `.s3.test.ts`, `.faults.test.ts`, `.packages.test.ts`, `.plugin.test.ts`: the CI
 *   stage of that name (`npm run test:<stage>`, .ci/run);
 * - `<name>.newest.test.ts`: only the newest-pair stage (vitest.toolchains.config.mts).
 */
const KINDS = ["official", "engine", "cli", "e2e", "s3", "faults", "packages", "plugin", "newest"] as const;
type Kind = (typeof KINDS)[number];

/** The files of one kind, in every behaviour's folder. */
const ofKind = (kind: Kind): string => `test/**/*.${kind}.test.ts`;

/** The official path's packages, packed and installed once per run (official and plugin projects). */
const OFFICIAL_SETUP = "test/support/globalSetup.ts";

/** Limits of a project whose files start the Pulumi CLI or npm: generous, finite. */
function engineProject(
  kind: Kind,
  options: { groupOrder?: number; globalSetup?: string } = {},
): TestProjectInlineConfiguration {
  return {
    test: {
      name: kind,
      include: [ofKind(kind)],
      exclude: [],
      testTimeout: 600_000,
      hookTimeout: 60_000,
      maxWorkers: WORKERS,
      sequence: { groupOrder: options.groupOrder ?? 0 },
      ...(options.globalSetup === undefined ? {} : { globalSetup: [options.globalSetup] }),
    },
  };
}

/**
 * The files that take longest, in seconds (vitest's recorded durations on this machine, 2026-11-27, some under
 * load): started first, so that the last file of a stage is a short one and the two workers end together. A
 * clean clone has no durations of its own for vitest to sort by, and a 400 s file started last keeps one worker
 * idle for minutes. Only the order depends on these; a stale figure costs time, never a result
 * (test/tooling/knownSeconds.test.ts checks that each file exists).
 */
const KNOWN_SECONDS: Readonly<Record<string, number>> = {
  "test/packaging/programs.e2e.test.ts": 395,
  "test/faults/faultMatrix.faults.test.ts": 238,
  "test/fleet/fleet.lifecycle.e2e.test.ts": 224,
  "test/import-export/export.cli.test.ts": 194,
  "test/docs/examples.official.test.ts": 136,
  "test/packaging/consumer.packages.test.ts": 135,
  "test/packaging/packageManagers.packages.test.ts": 128,
  "test/lifecycle/lifecycle.e2e.test.ts": 118,
  "test/preview/readOnlyKey.e2e.test.ts": 114,
  "test/secrets/secretConfig.cli.test.ts": 106,
  "test/takeover/takeover.cli.test.ts": 150,
  "test/takeover/takeover.plugin.test.ts": 250,
  "test/config/configMistakes.cli.test.ts": 96,
  "test/tooling/explorer.engine.test.ts": 94,
  "test/takeover/concurrency.e2e.test.ts": 90,
  "test/docs/tryIt.e2e.test.ts": 86,
  "test/docs/readme.official.test.ts": 84,
  "test/packaging/gitInstall.e2e.test.ts": 76,
  "test/plugin/move.plugin.test.ts": 72,
  "test/one-hook-per-shop/bothHosts.plugin.test.ts": 180,
};

/** A file's known duration in seconds (0 when not among {@link KNOWN_SECONDS}). */
function knownSeconds(spec: TestSpecification): number {
  const file = Object.keys(KNOWN_SECONDS).find((path) => spec.moduleId.endsWith(`/${path}`));
  return file === undefined ? 0 : (KNOWN_SECONDS[file] ?? 0);
}

/**
 * Longest first, so that two workers end together: the explorer, then the official path and the other
 * engine files (the known long ones first), then the fast ones (vitest's own order is by project name, then by
 * the last run's durations, which a clean clone does not have).
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) =>
      spec.project.config.sequence.groupOrder * 10 +
      (spec.moduleId.endsWith("/explorer.engine.test.ts") ? 0 : spec.project.name === "fast" ? 2 : 1);
    return sorted
      .map((spec, index) => ({ spec, index }))
      .sort(
        (a, b) =>
          rank(a.spec) - rank(b.spec) || knownSeconds(b.spec) - knownSeconds(a.spec) || a.index - b.index,
      )
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
        // Pure functions and tables, the client and the provider against the simulator over loopback, the
        // simulator, property tests, the repository's tooling: seconds each, no Pulumi CLI. Every `*.test.ts`
        // whose name says no other kind.
        test: {
          name: "fast",
          include: ["test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...KINDS.map(ofKind)],
          testTimeout: 30_000,
          hookTimeout: 30_000,
          maxWorkers: WORKERS,
        },
      },
      // The user's path: project folders through the CLI's Node.js language host, the package installed once
      // per run from its tarball (test/support/globalSetup.ts).
      engineProject("official", { globalSetup: OFFICIAL_SETUP }),
      // The fixed-seed explorer, one engine test per operation and refusal kind, and what only the engine shows
      // on the user's paths of review, drift and secrets.
      engineProject("engine"),
      // CI stages (.ci/run): npm run test:cli, test:e2e, test:s3, test:faults, test:packages, test:plugin.
      // cli: what official does, for each guarantee's sequence (a partner's subscription, a late write, config
      // mistakes, export and import, a program that declares nothing), with the official path's packages.
      engineProject("cli", { groupOrder: 1, globalSetup: OFFICIAL_SETUP }),
      // e2e: the other engine tests. s3: versitygw, the s3:// backend and two CI runners on one bucket. faults:
      // the fault matrix and SIGKILLs mid-`up` under skip checkpoints. packages: the packed tarball installed
      // with --omit=dev, and under pnpm and yarn.
      engineProject("e2e", { groupOrder: 1 }),
      engineProject("s3", { groupOrder: 2 }),
      engineProject("faults", { groupOrder: 3 }),
      engineProject("packages", { groupOrder: 4 }),
      // The provider plugin through the official CLI (npm run test:plugin): the package installed once per run
      // from its tarball, as for the official project.
      engineProject("plugin", { groupOrder: 5, globalSetup: OFFICIAL_SETUP }),
    ],
  },
});
