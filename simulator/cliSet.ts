/**
 * The `--set name=value` of the client commands (`trigger`, `switches`): each value as JSON when it parses,
 * else as text, and a JSON number the parse would change (beyond the largest double, more digits than a double
 * holds, an integer beyond 2^53), anywhere in the value, refused naming where it is and the number it would become.
 */
import { UsageError } from "./cliArgs";
import { stringEnd } from "./jsonScan";
import { setOwn } from "./records";

/**
 * The repeated `--set name=value` of a client command (`trigger`; `switches` in cliInspect.ts) as an object, each value as JSON when it parses (`5`,
 * `true`), else as text (`5xx`, `3SABC123`). Every name becomes an own property (`__proto__` included, for the
 * simulator to refuse); an item without a name is a UsageError quoting `form`, e.g. "name=value, e.g. --set
 * deliveryAttempts=5"; so is a JSON number the parse would change (numberChanged), naming its path and the fix.
 */
export function setAssignments(items: readonly string[] | undefined, form: string): Record<string, unknown> {
  const assigned: Record<string, unknown> = {};
  for (const text of items ?? []) {
    const eq = text.indexOf("=");
    if (eq <= 0) throw new UsageError(`--set takes ${form} (got "${text}")`);
    const raw = text.slice(eq + 1);
    const name = text.slice(0, eq);
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      setOwn(assigned, name, raw);
      continue;
    }
    const changed = numberChanged(raw);
    if (changed !== undefined) {
      const at = changed.path.length === 0 ? "" : `${[name, ...changed.path].join(".")}: `;
      const quoted = `${raw.slice(0, changed.start)}"${changed.token}"${raw.slice(changed.start + changed.token.length)}`;
      const atMost = changed.integer ? `give at most ${Number.MAX_SAFE_INTEGER}, or ` : "";
      throw new UsageError(
        `--set ${text}: ${at}${changed.why}; ${atMost}send the digits as a string: --set '${name}=${quoted}'`,
      );
    }
    setOwn(assigned, name, value);
  }
  return assigned;
}

/** A JSON number of a `--set` value that JSON.parse changes: where it is, its text, and what it becomes. */
interface ChangedNumber {
  /** The keys and indexes from the value down to the number ([] for the value itself). */
  path: string[];
  /** The number as written. */
  token: string;
  /** Where `token` starts in the value's text. */
  start: number;
  /** Whether it is written as an integer beyond 2^53 (a smaller number would do). */
  integer: boolean;
  /** What it becomes, e.g. "1e400 is beyond the largest JSON number here (...): it would be sent as null". */
  why: string;
}

/** A JSON number, anchored at `lastIndex`. */
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * The first number of the JSON text `raw` (which JSON.parse accepts) that JSON.parse would not keep as written:
 * not finite (1e400 becomes Infinity, sent as null), or a double whose decimal (what is sent) is another number
 * than the one written (9007199254740993, 9.007199254740993e15, 1e-400 -> 0); undefined when every number is
 * kept (1e300, 0.1, 1.0, 9007199254740992). Numbers inside strings are not numbers.
 */
function numberChanged(raw: string): ChangedNumber | undefined {
  // Each open object (the key of the member being read, undefined until it is read) or array (the index).
  const stack: ({ object: true; key?: string | undefined } | { object: false; index: number })[] = [];
  for (let i = 0; i < raw.length; ) {
    const c = raw[i] as string;
    const top = stack[stack.length - 1];
    if (c === '"') {
      const end = stringEnd(raw, i);
      if (end < 0) return undefined;
      if (top?.object === true && top.key === undefined) top.key = JSON.parse(raw.slice(i, end)) as string;
      i = end;
      continue;
    }
    if (c === "-" || (c >= "0" && c <= "9")) {
      NUMBER.lastIndex = i;
      const token = NUMBER.exec(raw)?.[0] ?? c;
      const path = stack.map((frame) => (frame.object ? (frame.key ?? "") : String(frame.index)));
      const why = numberLost(token);
      if (why !== undefined) return { path, token, start: i, ...why };
      i += token.length;
      continue;
    }
    if (c === "{") stack.push({ object: true });
    else if (c === "[") stack.push({ object: false, index: 0 });
    else if (c === "}" || c === "]") stack.pop();
    else if (c === "," && top !== undefined) {
      if (top.object) top.key = undefined;
      else top.index += 1;
    }
    i += 1;
  }
  return undefined;
}

/** Why the JSON number `token` would be sent as another number, or undefined when it is sent as written. */
function numberLost(token: string): { integer: boolean; why: string } | undefined {
  const value = Number(token);
  if (!Number.isFinite(value))
    return {
      integer: false,
      why: `${token} is beyond the largest JSON number here (${Number.MAX_VALUE}): it would be sent as null`,
    };
  if (decimal(token) === decimal(String(value))) return undefined;
  if (/^-?\d+$/.test(token))
    return {
      integer: true,
      why: `${token} is an integer beyond 2^53, which a JSON number here holds only as ${BigInt(value)}: it would be sent as that other number`,
    };
  return {
    integer: false,
    why: `${token} is held by a JSON number here only as ${String(value)}: it would be sent as that other number`,
  };
}

/** A number's decimal text in one form (sign, digits without leading or trailing zeros, exponent): "1.50e2" -> "15e1". */
function decimal(text: string): string {
  const parts = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (parts === null) return text;
  const [, sign = "", whole = "", fraction = "", exponent = "0"] = parts;
  const digits = `${whole}${fraction}`.replace(/^0+/, "");
  if (digits === "") return "0";
  const kept = digits.replace(/0+$/, "");
  const shift = BigInt(exponent) - BigInt(fraction.length) + BigInt(digits.length - kept.length);
  return `${sign}${kept}e${shift}`;
}
