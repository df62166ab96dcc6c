/**
 * simulator/README.md says what the code does: every flag of the command has a row in its flag table, every
 * control endpoint a row inside the control endpoints table (a row once fell out of it), and the choices the
 * spec leaves open are marked as the simulator's assumptions.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI_OPTIONS } from "../../simulator/cliArgs";
import { controlEndpoints } from "../../simulator/control";

const README = readFileSync(join(__dirname, "..", "..", "simulator", "README.md"), "utf8");

/** The rows of the table whose header line is `header`: the `|` lines right after it, up to the first other line. */
function tableRows(markdown: string, header: string): string[] {
  const lines = markdown.split("\n");
  const start = lines.indexOf(header);
  if (start < 0) throw new Error(`no table with the header ${header}`);
  const rows: string[] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(line);
  }
  return rows;
}

/**
 * The flags a flag table's rows have rows for: each row's first cell (split on the `|` not escaped as `\|`),
 * which lists one flag or several separated by `,` or `/`, e.g. "`--delivery-attempts <n>`, `--duplicates <0-1>`";
 * a flag named only in another cell (the `--host` row's "unless `--expose`") does not count.
 */
function flagTableFlags(rows: readonly string[]): string[] {
  return rows.flatMap((row) =>
    (row.split(/(?<!\\)\|/)[1] ?? "")
      .split(/[,/]/)
      .map((item) => /^\s*`--([a-z][a-z0-9-]*)/.exec(item)?.[1])
      .filter((flag): flag is string => flag !== undefined),
  );
}

describe("simulator/README.md", () => {
  it("has a row in the flag table for every flag of the command", () => {
    const listed = flagTableFlags(tableRows(README, "| flag | default | meaning |"));
    const missing = Object.keys(CLI_OPTIONS).filter((flag) => !listed.includes(flag));
    expect(missing).toEqual([]);
  });

  it("counts only a row's first cell as that row's flags, not a flag the row's text mentions", () => {
    const rows = [
      "| `--host <addr>` | `127.0.0.1` | only loopback unless `--expose` |",
      "| `--auth both\\|basic\\|bearer` | `both` | scheme |",
      "| `--delivery-attempts <n>`, `--duplicates <0-1>` / `--retry-after` | see Switches | delivery |",
    ];
    expect(flagTableFlags(rows)).toEqual(["host", "auth", "delivery-attempts", "duplicates", "retry-after"]);
  });

  it("has every control endpoint as a row inside the control endpoints table", () => {
    const rows = tableRows(README, "| endpoint | answer |");
    const missing = controlEndpoints().filter(
      (endpoint) => !rows.some((row) => row.startsWith(`| \`${endpoint}\``)),
    );
    expect(missing).toEqual([]);
  });

  it.each([
    [
      "statuses 30-38 notify",
      /30-38 included:\s+which statuses production notifies for is not shown \(the simulator's assumption\)/,
    ],
    [
      "the reason text of a failed label",
      /`reason` \(on failure: `label creation failed \(simulated\)`; production's text is not shown, the simulator's assumption\)/,
    ],
    [
      "late and out-of-order delivery",
      /Both are assumptions:\s+how late and in which order production delivers is not shown/,
    ],
  ])("marks %s as the simulator's assumption", (_choice, sentence) => {
    expect(README).toMatch(sentence);
  });
});
