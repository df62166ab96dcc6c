/**
 * Runs a command's `main` and exits with the code it returns; a thrown error is printed with its stack,
 * prefixed by the command's name, and exits 2 (1 stays the command's own "found something" answer).
 */
export function runCommand(name: string, main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(
        `${name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exit(2);
    },
  );
}
