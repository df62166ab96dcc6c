// The ESM consumer: named imports of the package (a CommonJS module) as an ES module sees them.
import { automation } from "@pulumi/pulumi";
import { WebhookSubscription } from "pulumi-shipping-webhooks";
import driver from "./drive.cjs";

await driver.drive({ WebhookSubscription, automation, flavour: "esm" });
