/**
 * The `--set name=value` of the client commands (`trigger`, `switches`): each value as JSON when it parses,
 * else as text, and an integer JSON would change (beyond 2^53) refused naming the number it would become.
 */
import { UsageError } from "./cli-args";
import { setOwn } from "./records";

/**
 * The repeated `--set name=value` of a client command (`trigger`; `switches` in cli-inspect.ts) as an object, each value as JSON when it parses (`5`,
 * `true`), else as text (`5xx`, `3SABC123`). Every name becomes an own property (`__proto__` included, for the
 * simulator to refuse); an item without a name is a UsageError quoting `form`, e.g. "name=value, e.g. --set
 * deliveryAttempts=5".
 */
export function setAssignments(items: readonly string[] | undefined, form: string): Record<string, unknown> {
  const assigned: Record<string, unknown> = {};
  for (const text of items ?? []) {
    const eq = text.indexOf("=");
    if (eq <= 0) throw new UsageError(`--set takes ${form} (got "${text}")`);
    const raw = text.slice(eq + 1);
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      value = raw;
    }
    const name = text.slice(0, eq);
    const lost = digitsLost(raw, value);
    if (lost !== undefined)
      throw new UsageError(
        `--set ${text}: ${lost}; give at most ${Number.MAX_SAFE_INTEGER}, or send the digits as a string: --set '${name}="${raw}"'`,
      );
    setOwn(assigned, name, value);
  }
  return assigned;
}

/**
 * Why the JSON number `raw` would be sent as another number (an integer beyond 2^53: JSON.parse keeps 53 bits,
 * so 9007199254740993 becomes 9007199254740992), or undefined when it is sent as written.
 */
export function digitsLost(raw: string, value: unknown): string | undefined {
  if (typeof value !== "number" || !/^\s*-?\d+\s*$/.test(raw) || Number.isSafeInteger(value))
    return undefined;
  if (BigInt(raw.trim()) === BigInt(value)) return undefined;
  return `${raw.trim()} is an integer beyond 2^53, which a JSON number here holds only as ${BigInt(value)}: it would be sent as that other number`;
}
