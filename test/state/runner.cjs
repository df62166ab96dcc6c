// One CI runner: runs one Pulumi operation of the GitOps example (examples/gitops: Pulumi.yaml, index.ts) in its
// own checkout folder, as the workflow's job would: the CLI runs the project with its Node.js language host
// (an Automation API local program). A separate process, so that a test can start two at the same moment and
// kill one with SIGKILL.
//
// Usage: node runner.cjs <repoRoot> <workDir> <up|preview|refresh|cancel>
// Environment: what the workflow sets (PULUMI_BACKEND_URL, AWS_*, PULUMI_CONFIG_PASSPHRASE, SHIPPING_API_KEY,
// PULUMI_HOME) plus SHIPPING_PULUMI_ROOT (where the CLI is). Prints the CLI's output, then one line
// `RUNNER-RESULT <json>`; exits 0 when the operation succeeded, 1 when it failed.
const path = require("node:path");

const [repoRoot, workDir, operation] = process.argv.slice(2);
/** Bound of one operation; the test's own deadline is longer. */
const OPERATION_DEADLINE_MS = 240_000;

async function main() {
  const stacks = require(path.join(repoRoot, "dist/scripts/lib/stacks.js"));
  const stack = await stacks.openProjectStack({ workDir, stackName: "production" });
  const onOutput = (text) => process.stdout.write(text);
  const run = {
    up: () => stack.up({ onOutput }),
    preview: () => stack.preview({ onOutput }),
    refresh: () => stack.refresh({ onOutput, clearPendingCreates: true }),
    cancel: () => stack.cancel(),
  }[operation];
  if (run === undefined) throw new Error(`unknown operation ${operation}`);
  const result = await stacks.withDeadline(run(), OPERATION_DEADLINE_MS, `runner ${operation}`);
  const changes = result?.summary?.resourceChanges ?? result?.changeSummary ?? {};
  process.stdout.write(`\nRUNNER-RESULT ${JSON.stringify({ ok: true, changes })}\n`);
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stdout.write(`\nRUNNER-RESULT ${JSON.stringify({ ok: false, error: String(error) })}\n`);
    process.exit(1);
  },
);
