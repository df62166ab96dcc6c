// Deploys one WebhookSubscription with the Automation API of the consumer project's own node_modules, then
// destroys it. Run by test/package with cwd = a fresh project outside the repository, by deploy.mjs (ESM)
// or deploy.cjs (CommonJS), each of which loads pulumi-shipping-webhooks its own way.
const { writeFileSync } = require("node:fs");
const { join } = require("node:path");

/** Reads a required environment variable. */
function required(name) {
  const value = process.env[name];
  if (value === undefined || value === "") throw new Error(`${name} is not set`);
  return value;
}

/**
 * Runs up, exports the state to `state-<stack>.json`, then destroy. `WebhookSubscription` and `automation`
 * are what the calling consumer imported.
 */
async function drive({ WebhookSubscription, automation, flavour }) {
  const stackName = `consumer-${flavour}`;
  const program = async () => {
    const hook = new WebhookSubscription("orders", {
      hook: "order_status_change",
      url: required("CONSUMER_HOOK_URL"),
    });
    return { subscriptionId: hook.subscriptionId };
  };
  const stack = await automation.LocalWorkspace.createOrSelectStack(
    { stackName, projectName: "consumer", program },
    {
      pulumiCommand: await automation.PulumiCommand.get({ root: required("CONSUMER_PULUMI_ROOT") }),
      workDir: process.cwd(),
      envVars: {
        PULUMI_HOME: required("PULUMI_HOME"),
        PULUMI_CONFIG_PASSPHRASE: "consumer-test",
        PULUMI_SKIP_UPDATE_CHECK: "1",
        PULUMI_DIY_BACKEND_NO_LEGACY_WARNING: "true",
      },
      projectSettings: {
        name: "consumer",
        runtime: "nodejs",
        backend: { url: `file://${required("CONSUMER_BACKEND_DIR")}` },
      },
    },
  );
  await stack.setAllConfig({
    "shipping:apiKey": { value: required("CONSUMER_API_KEY"), secret: true },
    "shipping:baseUrl": { value: required("CONSUMER_BASE_URL") },
  });
  const log = (text) => process.stderr.write(text);
  const up = await stack.up({ onOutput: log });
  const state = await stack.exportStack();
  writeFileSync(join(process.cwd(), `state-${stackName}.json`), JSON.stringify(state));
  await stack.destroy({ onOutput: log });
  process.stdout.write(`${JSON.stringify({ subscriptionId: up.outputs.subscriptionId?.value })}\n`);
}

module.exports = { drive };
