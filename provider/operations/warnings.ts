/**
 * Where the provider's warnings go (a subscription left alone or taken for gone, and why). The dynamic host
 * prints them to stderr, which the CLI shows; the plugin host sends them to the engine's log instead (the CLI
 * does not show a provider plugin's stderr). One provider per process: the host sets the sink once, at start.
 */

/** Writes one warning. */
export type WarningSink = (text: string) => void;

let sink: WarningSink = (text) => {
  process.stderr.write(`${text}\n`);
};

/**
 * Whether diff says a drift it finds: under the plugin host; a program of the dynamic host says it at preview
 * itself (provider/program/previewChecks.ts), which no program of the plugin does.
 */
let driftAtDiff = false;

/**
 * Sends the warnings of this process to `next` (undefined: stderr); `driftAtDiff`: diff warns of a drift too.
 */
export function setWarningSink(next: WarningSink | undefined, options: { driftAtDiff?: boolean } = {}): void {
  if (next !== undefined) sink = next;
  driftAtDiff = options.driftAtDiff === true;
}

/** Says why a subscription is left alone or taken for gone. */
export function warn(text: string): void {
  sink(text);
}

/** Says a drift that diff found, where no program says it (see `driftAtDiff`). */
export function warnOfDrift(text: string): void {
  if (driftAtDiff) sink(text);
}
