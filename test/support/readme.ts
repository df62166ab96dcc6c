import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "./engine";

/**
 * The fenced code block that follows `<!-- <marker> -->` in a Markdown file of the repository (README.md by
 * default): what the tests run is what the docs show, so the two cannot drift apart.
 */
export function markedBlock(marker: string, file = "README.md"): string {
  const text = readFileSync(join(REPO_ROOT, file), "utf8");
  const at = text.indexOf(`<!-- ${marker} -->`);
  if (at === -1) throw new Error(`${file} has no <!-- ${marker} --> block`);
  const fence = /```[a-z]*\n([\s\S]*?)```/.exec(text.slice(at));
  if (fence?.[1] === undefined) throw new Error(`${file}: no fenced block after <!-- ${marker} -->`);
  return fence[1];
}

/** The fenced code block that follows a Markdown heading (`## Try it locally`) in a file of the repository. */
export function blockAfterHeading(heading: string, file: string): string {
  const text = readFileSync(join(REPO_ROOT, file), "utf8");
  const at = text.indexOf(`\n${heading}\n`);
  if (at === -1) throw new Error(`${file} has no heading ${heading}`);
  const fence = /```[a-z]*\n([\s\S]*?)```/.exec(text.slice(at));
  if (fence?.[1] === undefined) throw new Error(`${file}: no fenced block after ${heading}`);
  return fence[1];
}

/**
 * The arguments of each `pulumi ...` line of a shell block, with placeholders (`<key>`) replaced; other lines
 * (`npm install`, which the test project has done) are left out. Quotes are not supported: the README's
 * configure block has none.
 */
export function pulumiCommands(block: string, values: Record<string, string>): string[][] {
  return block
    .split("\n")
    .map((line) => line.replace(/#.*$/, "").trim())
    .filter((line) => line.startsWith("pulumi "))
    .map((line) => {
      let filled = line;
      for (const [placeholder, value] of Object.entries(values))
        filled = filled.replaceAll(placeholder, value);
      if (/[<>'"]/.test(filled)) throw new Error(`unfilled placeholder or quote in: ${line}`);
      return filled.split(/\s+/).slice(1);
    });
}
