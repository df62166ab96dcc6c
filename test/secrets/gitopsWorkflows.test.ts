/**
 * Issue 16, least privilege in the GitOps template: the read-write Shipping API key is a secret of the
 * `production` environment and only the deploy job, which names that environment, can read it. Pull-request
 * previews and the scheduled drift check get read-only keys. actionlint (`npm run lint:workflows`) checks
 * the syntax; this test reads what the workflows grant to whom.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

const WORKFLOWS = join(__dirname, "..", "..", "examples", "gitops", ".github", "workflows");
/** Secrets that can change subscriptions. */
const READ_WRITE_SECRETS = ["SHIPPING_API_KEY", "SHIPPING_SHOPS"];
/** Secrets that can only read them. */
const READ_ONLY_SECRETS = ["SHIPPING_READ_ONLY_API_KEY", "SHIPPING_READ_ONLY_SHOPS"];

interface Job {
  readonly if?: string;
  readonly environment?: string | { name: string };
  readonly permissions?: Record<string, string>;
  readonly env?: Record<string, string>;
  readonly steps?: Array<{ run?: string }>;
}

interface Workflow {
  readonly on: Record<string, unknown>;
  readonly permissions?: Record<string, string>;
  readonly env?: Record<string, string>;
  readonly jobs: Record<string, Job>;
}

function workflow(file: string): Workflow {
  return parse(readFileSync(join(WORKFLOWS, file), "utf8")) as Workflow;
}

/** The names of every `secrets.X` a part of a workflow references, anywhere inside it. */
function secretsIn(part: unknown): string[] {
  const text = JSON.stringify(part ?? {});
  return [...new Set([...text.matchAll(/secrets\.([A-Za-z0-9_]+)/g)].map((m) => m[1] as string))].sort();
}

function environmentOf(job: Job): string | undefined {
  return typeof job.environment === "string" ? job.environment : job.environment?.name;
}

function runs(job: Job): string {
  return (job.steps ?? []).map((step) => step.run ?? "").join("\n");
}

describe("examples/gitops workflows: who holds which Shipping API key", () => {
  const webhooks = workflow("webhooks.yml");
  const drift = workflow("drift.yml");

  it("no workflow grants a read-write key at workflow level, where every job would see it", () => {
    for (const w of [webhooks, drift]) {
      expect(secretsIn(w.env).filter((s) => READ_WRITE_SECRETS.includes(s))).toEqual([]);
      expect(w.permissions).toEqual({ contents: "read" });
    }
  });

  it("only a job in the production environment, never one a pull request starts, reads the read-write key", () => {
    const holders = Object.entries({ ...webhooks.jobs, ...drift.jobs }).filter(([, job]) =>
      secretsIn(job).some((s) => READ_WRITE_SECRETS.includes(s)),
    );
    expect(holders.map(([name]) => name)).toEqual(["up"]);
    const [, up] = holders[0] as [string, Job];
    expect(environmentOf(up)).toBe("production");
    expect(up.if).toMatch(/github\.event_name != 'pull_request'/);
    expect(up.if).toMatch(/github\.ref == 'refs\/heads\/main'/);
    expect(runs(up)).toMatch(/pulumi up --yes/);
    // pull_request_target would run with the base repository's secrets for forks' pull requests.
    expect(Object.keys(webhooks.on).sort()).toEqual(["pull_request", "push", "workflow_dispatch"]);
  });

  it("the pull-request preview runs with the read-only key only, outside the production environment", () => {
    const preview = webhooks.jobs.preview as Job;
    expect(preview.if).toMatch(/github\.event_name == 'pull_request'/);
    expect(environmentOf(preview)).toBeUndefined();
    expect(secretsIn(preview)).toEqual([...READ_ONLY_SECRETS].sort());
    const secret = (name: string) => ["${{", `secrets.${name}`, "}}"].join(" ");
    expect(preview.env).toEqual({
      SHIPPING_API_KEY: secret("SHIPPING_READ_ONLY_API_KEY"),
      SHIPPING_SHOPS: secret("SHIPPING_READ_ONLY_SHOPS"),
    });
    expect(preview.permissions).toEqual({ contents: "read", "pull-requests": "write" });
    expect(runs(preview)).toMatch(/pulumi preview --diff --refresh/);
  });

  it("the drift check is scheduled, read-only, and may only write issues", () => {
    expect(Object.keys(drift.on).sort()).toEqual(["schedule", "workflow_dispatch"]);
    const check = drift.jobs.drift as Job;
    expect(environmentOf(check)).toBeUndefined();
    expect(secretsIn(check).filter((s) => !READ_ONLY_SECRETS.includes(s))).toEqual([]);
    expect(check.permissions).toEqual({ contents: "read", issues: "write" });
    expect(runs(check)).toMatch(/pulumi preview --refresh --expect-no-changes/);
  });
});
