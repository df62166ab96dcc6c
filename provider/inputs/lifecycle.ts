import type { z } from "zod";
import { ShippingError } from "../errors/shippingError";
import { HOOKS } from "./hooks";
import { callbackUrlProblem, callbackUrlSchema, hookSchema, shopNameSchema } from "./schemas";

/**
 * The engine's marker for a value not known yet (during preview). A protocol constant of Pulumi's RPC
 * layer, repeated here so the provider process does not need to load the SDK to recognise it.
 */
export const UNKNOWN_VALUE = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/**
 * The resource's input properties that force a replacement when they change. `takeOver` (may a create
 * overwrite a subscription made outside the stack) is an input too, but changing it never replaces or writes.
 */
export const INPUT_PROPERTIES = ["hook", "url", "shop"] as const;

/** A check failure, shown by `pulumi preview` as `<property>: <reason>`. */
export interface CheckFailure {
  readonly property: string;
  readonly reason: string;
}

const schemas: Record<(typeof INPUT_PROPERTIES)[number], z.ZodType<string>> = {
  hook: hookSchema,
  url: callbackUrlSchema,
  shop: shopNameSchema,
};

const requiredReasons: Partial<Record<(typeof INPUT_PROPERTIES)[number], string>> = {
  hook: `is required; use one of ${HOOKS.join(", ")}`,
  url: "is required; give the HTTPS callback address, in lowercase",
};

/**
 * The hidden input a program sets when its `url` is a secret that breaks the URL rule: `{ refusal }`, a message
 * that names the resource and the rule and not the URL (an object, so that the engine's marker of a value not
 * known yet, a string, is never taken for one). The provider gets secrets unwrapped and cannot tell one, and the
 * engine prints a check failure with the property's value; so the check fails the resource with this message.
 * (Thrown in the program instead, the error could leave an Automation API inline program waiting.)
 */
export const SECRET_URL_PROBLEM_INPUT = "__secretUrlProblem";

/**
 * The hidden input a program sets when the stack config holds a key under `shipping:` that is no setting
 * (configKeys.ts): `{ refusal }`, the message that names the key, the rule and the nearest setting. The program
 * sees every key (`pulumi.runtime.allConfig()`); the dynamic provider is handed only a lookup by key, so a
 * misspelled key would be ignored there. The check fails the resource with it before anything is written.
 */
export const CONFIG_PROBLEM_INPUT = "__configProblem";

/** A program's refusal handed in `input` (an object, never the engine's marker of an unknown value), if any. */
function handedRefusal(news: Record<string, unknown>, input: string): string | undefined {
  const refusal = (news[input] as { refusal?: unknown } | null | undefined)?.refusal;
  return typeof refusal === "string" && refusal !== "" ? refusal : undefined;
}

/**
 * Validates the inputs before any API call. Unknown values (preview) pass; every failure names the property,
 * the rule and the fix; a URL the host says is a secret (`secret`, the plugin's) is neither quoted nor corrected. Throws only for what the program hands over: a key under `shipping:` that is no setting
 * ({@link CONFIG_PROBLEM_INPUT}), a secret URL that breaks the rule ({@link SECRET_URL_PROBLEM_INPUT}).
 */
export function checkInputs(
  news: Record<string, unknown>,
  secret: ReadonlySet<string> = new Set(),
): {
  inputs: Record<string, unknown>;
  failures: CheckFailure[];
} {
  const configProblem = handedRefusal(news, CONFIG_PROBLEM_INPUT);
  if (configProblem !== undefined) throw new ShippingError(configProblem);
  const refusal = handedRefusal(news, SECRET_URL_PROBLEM_INPUT);
  if (refusal !== undefined) throw new ShippingError(refusal);
  const inputs: Record<string, unknown> = {};
  const failures: CheckFailure[] = [];
  for (const property of INPUT_PROPERTIES) {
    const value = news[property];
    if (value === undefined || value === null) {
      const reason = requiredReasons[property];
      if (reason !== undefined) failures.push({ property, reason });
      continue;
    }
    inputs[property] = value;
    if (value === UNKNOWN_VALUE) continue;
    if (typeof value !== "string") {
      failures.push({
        property,
        reason: `must be a string, not ${Array.isArray(value) ? "an array" : typeof value}`,
      });
      continue;
    }
    const secretUrlProblem =
      property === "url" && secret.has("url") ? callbackUrlProblem(value, { secret: true }) : undefined;
    const parsed = schemas[property].safeParse(value);
    if (secretUrlProblem !== undefined) failures.push({ property, reason: secretUrlProblem });
    else if (!parsed.success) {
      failures.push({ property, reason: parsed.error.issues.map((issue) => issue.message).join("; ") });
    }
  }
  const takeOver = news.takeOver;
  if (takeOver !== undefined && takeOver !== null) {
    inputs.takeOver = takeOver;
    if (takeOver !== UNKNOWN_VALUE && typeof takeOver !== "boolean")
      failures.push({
        property: "takeOver",
        reason: `must be true or false, not ${JSON.stringify(takeOver)}; true lets this resource overwrite a subscription of its hook made outside the stack`,
      });
  }
  return { inputs, failures };
}

/** What `diff` tells the engine. */
export interface DiffDecision {
  readonly changes: boolean;
  readonly replaces: string[];
  readonly deleteBeforeReplace: false;
}

/**
 * Compares the declared inputs with the recorded state. Only `hook`, `url` and `shop` count; `__provider`
 * (which changes with every build of this package) and outputs are ignored, so an upgrade shows no change.
 * Every change is a replacement: the API has no update, and the subscription id (the resource id) may
 * change on overwrite. Create-before-delete (the default) keeps the hook subscribed throughout.
 */
export function diffInputs(olds: Record<string, unknown>, news: Record<string, unknown>): DiffDecision {
  const replaces = INPUT_PROPERTIES.filter(
    (property) =>
      news[property] === UNKNOWN_VALUE || (olds[property] ?? undefined) !== (news[property] ?? undefined),
  );
  return { changes: replaces.length > 0, replaces, deleteBeforeReplace: false };
}
