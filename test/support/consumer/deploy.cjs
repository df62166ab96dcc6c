// The CommonJS consumer: require() of the package.
const automation = require("@pulumi/pulumi/automation");
const { WebhookSubscription } = require("pulumi-shipping-webhooks");
const { drive } = require("./drive.cjs");

drive({ WebhookSubscription, automation, flavour: "cjs" }).catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
