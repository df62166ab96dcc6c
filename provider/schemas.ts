import { z } from "zod";
import { HOOKS } from "./hooks";

function hasSpaceOrControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code <= 0x20 || code === 0x7f) return true;
  }
  return /\s/.test(text);
}

/**
 * Why a callback URL is refused, with the fix; undefined when it is fine. The service stores URLs lowercase
 * and only calls HTTPS, so anything else would be rejected (or silently changed) by the API.
 */
export function callbackUrlProblem(url: string): string | undefined {
  // URL parsing trims or drops these silently ("https://a.example/x " parses), but the service refuses them.
  if (hasSpaceOrControl(url)) {
    return `${JSON.stringify(url)} must not contain whitespace or control characters (the service refuses them); remove them`;
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `"${url}" is not an absolute URL; write it as https://host/path`;
  }
  if (parsed.protocol !== "https:") {
    return `"${url}" must use HTTPS; use "https://${url.replace(/^[a-z][a-z0-9+.-]*:\/\//i, "")}"`;
  }
  if (parsed.username !== "" || parsed.password !== "") {
    return `"${url}" must not carry a user name or password; put a token in the path or query instead`;
  }
  if (url !== url.toLowerCase()) {
    return `"${url}" must be lowercase (the service calls it in lowercase); use "${url.toLowerCase()}"`;
  }
  return undefined;
}

/** A webhook callback URL: absolute, HTTPS, lowercase, no credentials. */
export const callbackUrlSchema = z.string().superRefine((url, ctx) => {
  const problem = callbackUrlProblem(url);
  if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem });
});

/** One of the three hooks, with a message that lists them. */
export const hookSchema = z.string().refine((hook) => (HOOKS as readonly string[]).includes(hook), {
  error: (issue) => `"${String(issue.input)}" is not a hook; use one of ${HOOKS.join(", ")}`,
});

/** A shop name as used in `shipping:shops`: lowercase letters, digits, `-` and `_`. */
export const shopNameSchema = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,62}$/, {
  error: (issue) =>
    `"${String(issue.input)}" is not a shop name; use 1-63 lowercase letters, digits, "-" or "_" (a key of shipping:shops)`,
});

/** The inputs of a WebhookSubscription once they are known. */
export const subscriptionInputsSchema = z.object({
  hook: hookSchema,
  url: callbackUrlSchema,
  shop: shopNameSchema.optional(),
});

/** Validated inputs of a WebhookSubscription. */
export type SubscriptionInputs = z.infer<typeof subscriptionInputsSchema>;
