/**
 * Checks this package makes in the process of a user's Pulumi program (never in the provider's): the library
 * run as the program, a program the language host never called, credentials kept in plain text in the
 * stack's config, and keys under `shipping:` that are no setting.
 */
import { relative } from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { unknownSettingsError } from "../config/configKeys";
import { programError } from "./programError";
import { libraryRunAsProgram, loadedAsProgram } from "./runAsProgram";
import { isSecretConfig } from "./secretConfig";

/**
 * The exit status by which a Node.js program tells the language host that it has already reported its error
 * (`nodeJSProcessExitedAfterLoggingUserActionableMessage` in @pulumi/pulumi's cmd/run): the run fails
 * without a second, generic message.
 */
const EXIT_AFTER_REPORTED_ERROR = 32;
/**
 * Fails the run when `main`, this package's main module, is itself the program that the language host runs
 * (runAsProgram.ts says when). Throws before anything is declared, so the update fails and deletes nothing.
 */
export function refuseRunAsProgram(main: NodeJS.Module | undefined): void {
  const refusal = libraryRunAsProgram(main);
  if (refusal !== undefined) throw programError(refusal);
}

/** How many WebhookSubscriptions this process has declared. */
let declared = 0;

/** Counts a declaration (see {@link failUncalledProgram}). */
export function noteDeclaration(): void {
  declared++;
}

/**
 * In a program that the Pulumi CLI's language host runs (it has a resource monitor while the program's
 * modules load): when the program ends having declared no WebhookSubscription and its entry module exports
 * a function (`export default async function` in a CommonJS project, or a named one, which the host never
 * calls), logs an error that says how to write it and fails the run. Without this, such a program registers
 * nothing and `pulumi up` succeeds, or, on a deployed stack, deletes every subscription. A function is never
 * a stack output worth having (Pulumi exports it as `{}`), so a named one fails too; a program that means to
 * declare nothing says so with `pulumi destroy`.
 * Automation API inline programs (no monitor yet when this package is imported) are not watched.
 */
export function failUncalledProgram(): void {
  if (!pulumi.runtime.hasMonitor()) return;
  process.once("beforeExit", () => {
    if (declared > 0) return;
    const entry = uncalledEntryModule();
    if (entry === undefined) return;
    const file = relative(process.cwd(), entry.filename);
    const message =
      entry.exported === "default"
        ? uncalledProgramMessage(file)
        : uncalledFunctionMessage(file, entry.exported);
    void pulumi.log.error(message);
    process.exitCode = EXIT_AFTER_REPORTED_ERROR;
  });
}

/** The refusal of an entry module that declared nothing and exports a function by name that nobody called. */
function uncalledFunctionMessage(entry: string, name: string): string {
  return `${entry} declared no WebhookSubscription and exports a function \`${name}\` that Pulumi does not call, so the update stops here (\`up\` would delete what the stack has). If it is the program, call it at the end of the file (\`${name}();\`) or write the program as top-level statements; if it is a helper, export it from another module; if the stack should have no subscriptions, run \`pulumi destroy\`.`;
}

/** The message for an entry module whose default export the language host did not call. */
function uncalledProgramMessage(entry: string): string {
  return `${entry} exports its program as \`export default\`, which Pulumi does not call in a CommonJS project, so nothing was declared (and \`up\` would delete what the stack has). Write the program as top-level statements with \`export const\` outputs, or as \`export = async () => { ... }\`; \`export default\` runs only with "type": "module" in package.json.`;
}

/**
 * The program's entry module, when the language host loaded it with `require` and it exports a function
 * (`default` first) that the host did not call: it calls the module's export only when that is a function.
 */
function uncalledEntryModule(): { readonly filename: string; readonly exported: string } | undefined {
  for (const loaded of Object.values(require.cache)) {
    if (!loadedAsProgram(loaded)) continue;
    if (/[\\/]node_modules[\\/]/.test(loaded.filename)) continue; // what the runner itself loads
    const exported = loaded.exports as Record<string, unknown> | null;
    if (exported === null || typeof exported !== "object") return undefined;
    const names = Object.keys(exported).filter((key) => typeof exported[key] === "function");
    const name = names.includes("default") ? "default" : names[0];
    return name === undefined ? undefined : { filename: loaded.filename, exported: name };
  }
  return undefined;
}

/** The stack settings that hold API keys, each of which must be set with `pulumi config set --secret`. */
const CREDENTIAL_SETTINGS = [
  { key: "shipping:apiKey", set: "pulumi config set --secret shipping:apiKey <key>" },
  { key: "shipping:shops", set: "pulumi config set --secret --path 'shipping:shops.<shop>.apiKey' <key>" },
] as const;

/** The deployments (by their stack resource) whose credentials were checked. */
const credentialsChecked = new WeakSet<object>();

/**
 * Warns, once per deployment, of a credential setting stored in plain text in the stack's config file (for
 * example given to `pulumi new --config`, which ignores a template's `secret: true`), naming the command that
 * stores it encrypted. The key itself is never printed.
 */
export function warnPlaintextCredentials(): void {
  const stack = pulumi.runtime.getStackResource();
  if (stack === undefined || credentialsChecked.has(stack)) return;
  credentialsChecked.add(stack);
  for (const { key, set } of CREDENTIAL_SETTINGS) {
    if (pulumi.runtime.getConfig(key) === undefined || isSecretConfig(key) !== false) continue;
    void pulumi.log.warn(
      `${key} is stored in plain text in the stack's config file (Pulumi.<stack>.yaml): anyone who can read the repository can use the key. Store it encrypted with \`${set}\` (and rotate the key if the file was shared).`,
    );
  }
}

/** The deployments (by their stack resource) whose config keys were checked, with the refusal, if any. */
const keysChecked = new WeakMap<object, { refusal: string } | undefined>();

/**
 * The refusal of the stack config's keys, once per deployment: the first key under `shipping:` that is no
 * setting (`shipping:shopID`), named with the rule and the nearest setting (configKeys.ts); undefined when
 * every key is one. Handed to the provider's check (CONFIG_PROBLEM_INPUT), which fails the resource with it.
 * Only the program sees every key: the dynamic provider is handed a lookup by key.
 */
export function unknownSettingsRefusal(): { refusal: string } | undefined {
  const stack = pulumi.runtime.getStackResource();
  if (stack !== undefined && keysChecked.has(stack)) return keysChecked.get(stack);
  const error = unknownSettingsError(Object.keys(pulumi.runtime.allConfig()), pulumi.getProject());
  const refusal = error === undefined ? undefined : { refusal: error.message };
  if (stack !== undefined) keysChecked.set(stack, refusal);
  return refusal;
}
