// One CI runner: runs one Pulumi operation of the GitOps example's program (examples/gitops, compiled in
// dist/) from its own checkout folder, as the workflow's job would, through the Automation API (this machine
// has no Node.js language host; see CONTRIBUTING.md). A separate process, so that a test can start two at the
// same moment and kill one with SIGKILL.
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
  const program = require(path.join(repoRoot, "dist/examples/gitops/index.js")).default;
  const stack = await stacks.openStack({
    workDir,
    projectName: "webhooks",
    stackName: "production",
    program,
  });
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
