import * as pulumi from "@pulumi/pulumi";
import type { Hook } from "../inputs/hooks";
import { CONFIG_PROBLEM_INPUT, SECRET_URL_PROBLEM_INPUT } from "../inputs/lifecycle";
import { PREVIEW_LISTING_INPUT } from "../inputs/previewListing";
import { callbackUrlProblem } from "../inputs/schemas";
import { DYNAMIC_RESOURCE_TYPE } from "../resourceTypes";
import { declaredByTwo, HookDeclarers } from "../rules/oneHookPerShop";
import { PROVIDER_MODULE } from "./dynamicProvider";
import { listingForProvider, tellInPreview } from "./previewChecks";
import { programError } from "./programError";
import {
  failUncalledProgram,
  noteDeclaration,
  unknownSettingsRefusal,
  warnPlaintextCredentials,
} from "./programGuards";

failUncalledProgram();

/** The arguments of a {@link WebhookSubscription}. */
export interface WebhookSubscriptionArgs {
  /** The event hook; changing it replaces the subscription. */
  readonly hook: pulumi.Input<Hook>;
  /** HTTPS callback URL, lowercase. May be a secret (a token in the URL stays encrypted in state). */
  readonly url: pulumi.Input<string>;
  /**
   * A shop listed in the `shipping:shops` secret config object, whose key (and optional base URL) is used.
   * Absent: the default shop of `shipping:apiKey`. Changing it replaces the subscription.
   */
  readonly shop?: pulumi.Input<string>;
  /**
   * Lets the create overwrite a live subscription of the hook that calls another URL and that no resource of
   * the stack records (made outside it: a partner, the back office). Without it such a create is refused, at
   * preview, naming the subscription. Changing it never replaces and never writes.
   */
  readonly takeOver?: pulumi.Input<boolean> | undefined;
}

/** What a subscription was before this resource took its hook over. */
export interface PreviousSubscription {
  readonly id: number;
  readonly url: string;
}

const declarationsByDeployment = new WeakMap<object, HookDeclarers>();
const declarationsWithoutStack = new HookDeclarers();

/**
 * Fails when two resources of one program declare the same hook for the same shop name. (The provider's check
 * also catches two names of one shop: the same API and key.)
 */
function registerDeclaration(name: string, shop: string | undefined, hook: string): void {
  const stack = pulumi.runtime.getStackResource();
  let declarations = stack === undefined ? declarationsWithoutStack : declarationsByDeployment.get(stack);
  if (declarations === undefined) {
    declarations = new HookDeclarers();
    declarationsByDeployment.set(stack as object, declarations);
  }
  const other = declarations.otherThan(shop ?? "", hook, name);
  if (other !== undefined) throw new Error(`${declaredByTwo(name, other, hook, shop ?? "(default)")}.`);
}

/** The hook input, registered so that a second declaration of the same shop and hook fails the program. */
function declaredHook(name: string, args: WebhookSubscriptionArgs): pulumi.Input<Hook> {
  const { hook, shop } = args;
  if (typeof hook === "string" && (shop === undefined || typeof shop === "string")) {
    registerDeclaration(name, shop, hook);
    return hook;
  }
  return pulumi.all([hook, shop]).apply(([knownHook, knownShop]) => {
    registerDeclaration(name, knownShop, knownHook);
    return knownHook;
  });
}

/**
 * For a secret URL that breaks the rule, the message the provider's check fails the resource with (see
 * SECRET_URL_PROBLEM_INPUT): it names the resource and the rule, not the URL. A plain URL is left to the
 * provider's check, which reports it on the `url` property, with the fix.
 */
function secretUrlProblem(
  name: string,
  url: pulumi.Input<string>,
): pulumi.Input<{ refusal: string } | undefined> | undefined {
  if (!pulumi.Output.isInstance(url)) return undefined;
  return url.apply(async (value) => {
    if (typeof value !== "string" || !(await pulumi.isSecret(url as pulumi.Output<string>))) return undefined;
    const problem = callbackUrlProblem(value, { secret: true });
    return problem === undefined ? undefined : { refusal: `WebhookSubscription "${name}": url: ${problem}` };
  });
}

/**
 * The message that refuses the `import` resource option before anything is registered: the engine would
 * hand the import to the dynamic-provider host, which cannot import and crashes.
 */
function importRefusal(name: string): string {
  return `WebhookSubscription "${name}": the \`import\` resource option is not supported (a dynamic provider cannot import). Remove it and adopt the live subscription instead: \`npx pulumi-shipping-webhooks export --stack ${pulumi.getStack()}\` prints its declaration, and the next \`pulumi up\` takes it over with no write (README, "Adopt existing subscriptions").`;
}

/**
 * A webhook subscription of a shop on the Shipping Service API. Create subscribes the hook (taking over an
 * existing subscription of that hook), read refreshes it, delete unsubscribes it. Any change of hook, url
 * or shop replaces it, create-before-delete, so the hook is never left without a subscription.
 */
export class WebhookSubscription extends pulumi.CustomResource {
  /** The event hook. */
  declare readonly hook: pulumi.Output<Hook>;
  /** The callback URL. */
  declare readonly url: pulumi.Output<string>;
  /** The shop, when not the default one. */
  declare readonly shop: pulumi.Output<string | undefined>;
  /** The subscription id assigned by the service (also the resource id). */
  declare readonly subscriptionId: pulumi.Output<number>;
  /** The API that issued the subscription id (its base URL in one canonical spelling; no credential). */
  declare readonly api: pulumi.Output<string>;
  /** The shop the subscription belongs to as the service reports it (`shop_id`), when the service says. */
  declare readonly shopId: pulumi.Output<string | undefined>;
  /** The account the subscription belongs to as the service reports it (`account_id`), when it says. */
  declare readonly accountId: pulumi.Output<string | undefined>;
  /**
   * The subscription the hook had when this resource was created, if any (adopted or overwritten). Always a
   * secret: it may hold the URL of an earlier declaration, which may have been secret.
   */
  declare readonly previous: pulumi.Output<PreviousSubscription | undefined>;
  /**
   * The id of the subscription that this resource's create overwrote with `takeOver: true`, made outside the
   * stack; undefined otherwise. A destroy deletes the resource's subscription all the same (docs/safety.md).
   */
  declare readonly takenOver: pulumi.Output<number | undefined>;

  constructor(name: string, args: WebhookSubscriptionArgs, opts?: pulumi.CustomResourceOptions) {
    if (opts?.import !== undefined) throw programError(importRefusal(name));
    const hook = declaredHook(name, args);
    noteDeclaration();
    warnPlaintextCredentials();
    // A dynamic resource (served by the dynamic-provider host), with its provider module written directly
    // rather than serialized by `pulumi.dynamic.Resource`: see PROVIDER_MODULE.
    super(
      DYNAMIC_RESOURCE_TYPE,
      name,
      {
        __provider: PROVIDER_MODULE,
        hook,
        url: args.url,
        shop: args.shop,
        takeOver: args.takeOver,
        subscriptionId: undefined,
        api: undefined,
        shopId: undefined,
        accountId: undefined,
        previous: undefined,
        takenOver: undefined,
        [PREVIEW_LISTING_INPUT]: listingForProvider(name, args),
        [SECRET_URL_PROBLEM_INPUT]: secretUrlProblem(name, args.url),
        [CONFIG_PROBLEM_INPUT]: unknownSettingsRefusal(),
      },
      { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), "previous"] },
    );
    tellInPreview(this, name, args);
  }
}
