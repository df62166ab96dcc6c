/**
 * `trigger --fixture <file>`, as `stripe fixtures` reads its requests from a file: the file holds one event as
 * `POST /__sim/events` takes it (`{"kind":"order_status_change","set":{...},"count":2}`); the command line's
 * hook and flags are laid over it (`--set` fields added to its `set`, `--unset` to its `unset`). The simulator
 * checks the result as any event (422, exit 2, naming the field).
 */
import { readFileSync } from "node:fs";
import { UsageError } from "./cliArgs";

/** Largest fixture file read, in bytes (an event's deliveries hold at most 256 KiB). */
const MAX_FIXTURE_BYTES = 1024 * 1024;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The event a fixture file holds; UsageError naming the file when it cannot be read or is not one object. */
export function readFixture(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new UsageError(
      `--fixture ${file}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? error})`,
    );
  }
  if (Buffer.byteLength(text) > MAX_FIXTURE_BYTES)
    throw new UsageError(
      `--fixture ${file}: larger than ${MAX_FIXTURE_BYTES} bytes; an event is far smaller`,
    );
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--fixture ${file}: not JSON (${(error as Error).message})`);
  }
  if (!isObject(json))
    throw new UsageError(
      `--fixture ${file}: must hold one event object, e.g. {"kind":"order_status_change","set":{"status":"open"}}`,
    );
  return json;
}

/**
 * `flags` (the event the command line gives) laid over `fixture`: a field given on the command line wins,
 * `set` objects merge (the command line's fields win), `unset` lists join.
 */
export function overFixture(
  fixture: Record<string, unknown>,
  flags: Record<string, unknown>,
): Record<string, unknown> {
  const event: Record<string, unknown> = { ...fixture, ...flags };
  if (isObject(fixture.set) && isObject(flags.set)) event.set = { ...fixture.set, ...flags.set };
  if (Array.isArray(fixture.unset) && Array.isArray(flags.unset))
    event.unset = [...fixture.unset, ...flags.unset];
  return event;
}
