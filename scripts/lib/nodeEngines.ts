/** Parses `v20.18.1` or `20.18.1` into [major, minor, patch]; undefined when it is no version. */
function parseVersion(text: string): [number, number, number] | undefined {
  const match = /^v?(\d+)\.(\d+)\.(\d+)$/.exec(text.trim());
  return match === null ? undefined : [Number(match[1]), Number(match[2]), Number(match[3])];
}

/**
 * Whether Node.js `version` (`process.version`, e.g. `v20.20.2`) satisfies `range`, the `engines.node` of
 * package.json. Only the form this project uses, `>=X.Y.Z`, is understood; any other range throws, so that a
 * change of the range cannot pass unchecked.
 */
export function nodeSatisfies(version: string, range: string): boolean {
  const minimum = /^>=\s*(\S+)$/.exec(range.trim())?.[1];
  const floor = minimum === undefined ? undefined : parseVersion(minimum);
  if (floor === undefined) throw new Error(`engines.node "${range}" is not of the form >=X.Y.Z`);
  const parsed = parseVersion(version);
  if (parsed === undefined) return false;
  for (let i = 0; i < 3; i++) {
    if (parsed[i] !== floor[i]) return (parsed[i] ?? 0) > (floor[i] ?? 0);
  }
  return true;
}

/**
 * The line `npm test` prints first: which Node.js runs it and the range it satisfies; throws, saying what to
 * install, when it does not.
 */
export function describeNode(version: string, executable: string, range: string): string {
  if (!nodeSatisfies(version, range)) {
    throw new Error(
      `Node.js ${version} at ${executable} is outside package.json's engines.node (${range}): ` +
        `install Node.js ${range.replace(/^>=\s*/, "")} or newer and put it first on PATH.`,
    );
  }
  return `Using Node.js ${version} at ${executable} (package.json engines.node: ${range})`;
}
