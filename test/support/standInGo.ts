import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** One run of the stand-in `go`: its arguments, working folder and the Go settings it was given. */
interface GoCall {
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: { CGO_ENABLED: string; GOTOOLCHAIN: string; GOFLAGS: string };
}

/** A folder to put first on PATH whose `go` records every call and "builds" without compiling. */
export interface StandInGo {
  readonly bin: string;
  /** Every call so far, in order. */
  calls(): GoCall[];
}

/** The stand-in's default Go: the oldest that builds the Pulumi CLI (the wrapper modules' `go 1.25.11`). */
const DEFAULT_GO_VERSION = "go1.25.11";

/** Separates the fields of one recorded call (the ASCII unit separator: in no argument or path). */
const FIELD = "\x1f";

/**
 * A stand-in `go` for testing scripts/install-pulumi.sh without a 6-minute compile (the thing under test is
 * the script, not Go): `go env GOVERSION` prints `goVersion` (default go1.25.11); `go list` reports two module downloads as
 * `go list -x` does; `go build ... -o OUT` writes OUT as a CLI that prints the version given by the
 * `-X .../version.Version=` of its `-ldflags` (what the real build embeds), or fails when `failBuild`.
 * A shell script, so that each call costs no Node.js start.
 */
export function standInGo(options: { goVersion?: string; failBuild?: boolean } = {}): StandInGo {
  const bin = join(mkdtempSync(join(tmpdir(), "stand-in-go-")), "bin");
  mkdirSync(bin);
  const log = join(bin, "..", "calls.log");
  const script = `#!/bin/sh
{ printf '%s\\037%s\\037%s\\037%s' "$PWD" "\${CGO_ENABLED-}" "\${GOTOOLCHAIN-}" "\${GOFLAGS-}"
  for arg in "$@"; do printf '\\037%s' "$arg"; done; echo; } >>'${log}'
case "$1" in
  env) echo '${options.goVersion ?? DEFAULT_GO_VERSION}' ;;
  version) echo 'go version ${options.goVersion ?? DEFAULT_GO_VERSION} linux/amd64' ;;
  list) printf '# get https://proxy.golang.org/a/@v/v1.0.0.zip: 200\\n# get https://proxy.golang.org/b/@v/v2.0.0.zip: 200\\n' >&2 ;;
  build)
    ${options.failBuild === true ? 'echo "stand-in go: build failed" >&2; exit 1' : ":"}
    out=""; version="unversioned"
    while [ $# -gt 0 ]; do
      case "$1" in
        -o) out="$2" ;;
        -ldflags) version="$(printf '%s' "$2" | sed -n 's/.*version\\.Version=\\([^ ]*\\).*/\\1/p')" ;;
      esac
      shift
    done
    printf '#!/bin/sh\\necho %s\\n' "$version" >"$out"; chmod +x "$out" ;;
esac
`;
  writeFileSync(join(bin, "go"), script);
  chmodSync(join(bin, "go"), 0o755);
  return {
    bin,
    calls: () =>
      existsSync(log)
        ? readFileSync(log, "utf8")
            .split("\n")
            .filter((line) => line !== "")
            .map((line) => {
              const [cwd = "", CGO_ENABLED = "", GOTOOLCHAIN = "", GOFLAGS = "", ...args] = line.split(FIELD);
              return { args, cwd, env: { CGO_ENABLED, GOTOOLCHAIN, GOFLAGS } };
            })
        : [],
  };
}
