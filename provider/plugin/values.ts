/**
 * Property values on the wire, as the engine sends them to a provider that accepts secrets: a secret is an
 * object with the secret signature and its `value`. The provider core works on plain values; the plugin host
 * unwraps what arrives, remembers which top-level properties were secret, and wraps them again on the way out.
 */
import type { StructMessage } from "./sdk";
import { Struct } from "./sdk";

const SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

/** Plain property values, and the top-level properties that held a secret anywhere inside them. */
export interface Unwrapped {
  readonly values: Record<string, unknown>;
  readonly secret: ReadonlySet<string>;
}

function isSecretValue(value: unknown): value is { value: unknown } {
  return (
    typeof value === "object" && value !== null && (value as Record<string, unknown>)[SIG_KEY] === SECRET_SIG
  );
}

function plain(value: unknown, found: { secret: boolean }): unknown {
  if (isSecretValue(value)) {
    found.secret = true;
    return plain(value.value, found);
  }
  if (Array.isArray(value)) return value.map((item) => plain(item, found));
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v, found)]));
  return value;
}

/** The plain values of a Struct (absent: none), with which top-level properties were secret. */
export function unwrap(struct: StructMessage | undefined): Unwrapped {
  const values: Record<string, unknown> = {};
  const secret = new Set<string>();
  for (const [key, value] of Object.entries(struct?.toJavaScript() ?? {})) {
    const found = { secret: false };
    values[key] = plain(value, found);
    if (found.secret) secret.add(key);
  }
  return { values, secret };
}

/** `value` as a secret on the wire. */
export function secretValue(value: unknown): Record<string, unknown> {
  return { [SIG_KEY]: SECRET_SIG, value };
}

/**
 * A Struct of `values` without the properties `drop` names and without undefined ones (the Struct has no
 * undefined), each of `secret` wrapped as a secret.
 */
export function toStruct(
  values: Record<string, unknown>,
  secret: Iterable<string> = [],
  drop: (key: string) => boolean = () => false,
): StructMessage {
  const secrets = new Set(secret);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined || drop(key)) continue;
    const json = JSON.parse(JSON.stringify(value)) as unknown;
    out[key] = secrets.has(key) ? secretValue(json) : json;
  }
  return Struct.fromJavaScript(out as Parameters<typeof Struct.fromJavaScript>[0]);
}
