// Deploys WebhookSubscriptions with the Automation API of the consumer project's own node_modules. Run by
// test/packaging/consumer.packages.test.ts and upgrade.newest.test.ts with cwd = a fresh project outside the repository, by deploy.mjs (ESM) or
// deploy.cjs (CommonJS), each of which loads pulumi-shipping-webhooks its own way.
//
// CONSUMER_OPERATIONS (default "up,export,refresh,destroy") lists what to run, in order; the last line printed
// is JSON: { subscriptionId, results: [{ operation, changes, outputs? }] }.
const { writeFileSync } = require("node:fs");
const { join } = require("node:path");
const pulumi = require("@pulumi/pulumi");

/** Reads a required environment variable. */
function required(name) {
  const value = process.env[name];
  if (value === undefined || value === "") throw new Error(`${name} is not set`);
  return value;
}

/** One hook, plus a second one with a secret URL when CONSUMER_SECRET_HOOK_URL is set. */
function program(WebhookSubscription) {
  return async () => {
    const hook = new WebhookSubscription("orders", {
      hook: "order_status_change",
      url: required("CONSUMER_HOOK_URL"),
    });
    const outputs = { subscriptionId: hook.subscriptionId, orderHook: hook.hook, orderUrl: hook.url };
    const secretUrl = process.env.CONSUMER_SECRET_HOOK_URL;
    if (secretUrl !== undefined && secretUrl !== "") {
      const labels = new WebhookSubscription("labels", {
        hook: "shipment_label_created",
        url: pulumi.secret(secretUrl),
      });
      Object.assign(outputs, { labelsId: labels.subscriptionId, labelsUrl: labels.url });
    }
    return outputs;
  };
}

/** Runs the operations of CONSUMER_OPERATIONS. `WebhookSubscription` and `automation` are what the caller imported. */
async function drive({ WebhookSubscription, automation, flavour }) {
  const stackName = process.env.CONSUMER_STACK || `consumer-${flavour}`;
  const stack = await automation.LocalWorkspace.createOrSelectStack(
    { stackName, projectName: "consumer", program: program(WebhookSubscription) },
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
  const results = [];
  let subscriptionId;
  for (const operation of (process.env.CONSUMER_OPERATIONS || "up,export,refresh,destroy").split(",")) {
    if (operation === "up") {
      const up = await stack.up({ onOutput: log });
      subscriptionId ??= up.outputs.subscriptionId?.value;
      results.push({ operation, changes: up.summary.resourceChanges, outputs: up.outputs });
    } else if (operation === "preview") {
      const preview = await stack.preview({ onOutput: log, diff: true });
      results.push({ operation, changes: preview.changeSummary });
    } else if (operation === "refresh") {
      const refresh = await stack.refresh({ onOutput: log });
      results.push({ operation, changes: refresh.summary.resourceChanges, outputs: await stack.outputs() });
    } else if (operation === "destroy") {
      const destroy = await stack.destroy({ onOutput: log });
      results.push({ operation, changes: destroy.summary.resourceChanges });
    } else if (operation === "export") {
      writeFileSync(
        join(process.cwd(), `state-${stackName}.json`),
        JSON.stringify(await stack.exportStack()),
      );
    } else {
      throw new Error(`unknown operation ${operation}`);
    }
  }
  process.stdout.write(`${JSON.stringify({ subscriptionId, results })}\n`);
}

module.exports = { drive };
