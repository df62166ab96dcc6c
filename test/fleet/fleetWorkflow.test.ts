/**
 * Issue 15 item 6: the CI side of examples/fleet. One job per stack group, the matrix taken from the runner's
 * `list` of fleet.yaml, a bound on the jobs at once, and the read-write keys only in the deploy jobs of the
 * `production` environment. actionlint (`npm run lint:workflows`) checks the syntax; this test reads what
 * runs where.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

const EXAMPLE = join(__dirname, "..", "..", "examples", "fleet");

interface Job {
  readonly needs?: string | string[];
  readonly if?: string;
  readonly environment?: string;
  readonly strategy?: { "fail-fast"?: boolean; "max-parallel"?: number; matrix?: Record<string, unknown> };
  readonly outputs?: Record<string, string>;
  readonly env?: Record<string, string>;
  readonly steps?: Array<{ run?: string }>;
}

const workflow = parse(readFileSync(join(EXAMPLE, ".github", "workflows", "fleet.yml"), "utf8")) as {
  jobs: Record<string, Job>;
};
/** A GitHub Actions expression as written in the workflow. */
const expr = (inner: string) => `\${{ ${inner} }}`;
const runs = (job: Job | undefined) => (job?.steps ?? []).map((step) => step.run ?? "").join("\n");

describe("examples/fleet workflow: one job per stack, bounded", () => {
  it("lists the stacks with the runner and fans out one job per stack, at most 4 at once, none cancelling others", () => {
    expect(runs(workflow.jobs.plan)).toContain("node dist/cli.js list --fleet fleet.yaml");
    for (const name of ["preview", "up"]) {
      const job = workflow.jobs[name];
      expect(job?.needs).toBe("plan");
      expect(job?.strategy?.matrix?.stack).toBe(expr("fromJSON(needs.plan.outputs.stacks)"));
      expect(job?.strategy?.["max-parallel"]).toBe(4);
      expect(job?.strategy?.["fail-fast"]).toBe(false);
      expect(job?.env?.STACK).toBe(expr("matrix.stack"));
      expect(runs(job)).toMatch(
        new RegExp(`node dist/cli\\.js ${name} --fleet fleet\\.yaml --stack "\\$STACK"`),
      );
    }
  });

  it("gives read-write keys only to the deploy jobs of the production environment", () => {
    expect(workflow.jobs.up?.environment).toBe("production");
    expect(workflow.jobs.up?.env?.SHIPPING_SHOPS).toBe(expr("secrets.SHIPPING_SHOPS"));
    expect(workflow.jobs.preview?.environment).toBeUndefined();
    expect(workflow.jobs.preview?.env?.SHIPPING_SHOPS).toBe(expr("secrets.SHIPPING_READ_ONLY_SHOPS"));
    expect(JSON.stringify(workflow.jobs.plan)).not.toMatch(/SHIPPING_/);
  });
});
