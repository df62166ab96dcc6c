/** Engine errors that only say that others happened. */
const GENERIC_ERROR = /^error: (update|preview|destroy|refresh) failed$/i;
/** Longest error text in a progress line; the log has the rest. */
const ERROR_TEXT_LIMIT = 600;

/**
 * The errors of the engine's "Diagnostics:" section as `<resource name>: <message>`, generic ones left out.
 */
function diagnostics(text: string): string[] {
  const start = text.indexOf("\nDiagnostics:\n");
  if (start < 0) return [];
  const found: string[] = [];
  let resource = "";
  for (const line of text
    .slice(start + 1)
    .split("\n")
    .slice(1)) {
    if (/^\S/.test(line)) break; // the next section (Resources:, Duration:, ...)
    const header = /^ {2}\S+ \((.+)\):$/.exec(line);
    if (header) resource = header[1] as string;
    const error = /^\s+(error: .*)$/.exec(line);
    if (error && !GENERIC_ERROR.test(error[1] as string)) {
      found.push(`${resource}: ${(error[1] as string).slice("error: ".length)}`);
    }
  }
  return found;
}

/**
 * What went wrong, in one line: the first resource error of the engine's diagnostics (and how many more), else
 * the error lines of the output, else the error's first lines.
 */
export function errorSummary(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const resources = diagnostics(text);
  let summary: string;
  if (resources.length > 0) {
    summary = resources[0] as string;
    if (resources.length > 1) summary += ` (and ${resources.length - 1} more resource error(s))`;
  } else {
    const lines = text
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => /\berror:/i.test(line) && !GENERIC_ERROR.test(line));
    summary = lines.length > 0 ? (lines[0] as string) : text.trim().split("\n").slice(0, 3).join(" ");
  }
  return summary.length > ERROR_TEXT_LIMIT ? `${summary.slice(0, ERROR_TEXT_LIMIT)}...` : summary;
}
