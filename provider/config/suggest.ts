/**
 * "Did you mean" for names a user typed: settings, keys of a shop entry, shop names. Pure functions, no
 * Pulumi, so that the provider, the program and the export CLI word a misspelling the same way.
 */

/** Levenshtein distance: the fewest single-character insertions, deletions and substitutions from a to b. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length] as number;
}

/** Most edits between a misspelled name and a known one for the known one to be suggested. */
const MAX_SUGGESTION_EDITS = 2;

/**
 * The known name `given` most likely misspells, or undefined when none is near: the one that differs only in
 * case first (`shopID` for `shopId`), else the one fewest edits away, at most {@link MAX_SUGGESTION_EDITS},
 * counted without regard to case (ties: the first in `known`). A name that is known as it is has no suggestion.
 */
export function suggestName(given: string, known: readonly string[]): string | undefined {
  if (known.includes(given)) return undefined;
  const lower = given.toLowerCase();
  const sameLetters = known.find((name) => name.toLowerCase() === lower);
  if (sameLetters !== undefined) return sameLetters;
  let best: { name: string; edits: number } | undefined;
  for (const name of known) {
    const edits = editDistance(lower, name.toLowerCase());
    if (edits <= MAX_SUGGESTION_EDITS && (best === undefined || edits < best.edits)) best = { name, edits };
  }
  return best?.name;
}
