import type * as pulumi from "@pulumi/pulumi";
import type * as runtime from "./runtime";

/**
 * The implementation is required by package name, at call time, inside the dynamic-provider process. The
 * engine stores this object's source in every resource's `__provider`; because only these few lines are
 * serialized (the rest is loaded from `node_modules`), `__provider` stays small, never holds a path of the
 * build machine or a credential, and an upgrade of the package takes effect without any diff.
 */
const RUNTIME_MODULE = "pulumi-shipping-webhooks/runtime";

function implementation(): typeof runtime {
  try {
    return require(RUNTIME_MODULE);
  } catch (error) {
    if ((error as { code?: string }).code !== "MODULE_NOT_FOUND") throw error;
    throw new Error(
      `Cannot load ${RUNTIME_MODULE} from ${process.cwd()}: install the package in the project that runs pulumi (npm install pulumi-shipping-webhooks)`,
    );
  }
}

/** The dynamic provider of {@link WebhookSubscription}: a thin, serializable shim over `./runtime`. */
export const webhookSubscriptionProvider: pulumi.dynamic.ResourceProvider = {
  configure: (req) => implementation().configure(req),
  check: (olds, news) => implementation().check(olds, news),
  diff: (id, olds, news) => implementation().diff(id, olds, news),
  create: (inputs) => implementation().create(inputs),
  read: (id, props) => implementation().read(id, props),
  delete: (id, props) => implementation().deleteSubscription(id, props),
};
