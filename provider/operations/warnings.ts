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

/** Sends the warnings of this process to `next`. */
export function setWarningSink(next: WarningSink): void {
  sink = next;
}

/** Says why a subscription is left alone or taken for gone. */
export function warn(text: string): void {
  sink(text);
}
