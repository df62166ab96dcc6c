/**
 * The README a user reads on the npm package page, and the docs it links to: short enough to read (the word
 * counts are printed on every run), each page of docs/ opening with its question and soon answering most of
 * it with a table or an example, every relative link lands on a file the package ships, every test a page
 * names exists, and one version across package.json, CHANGELOG.md and the README.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, posix, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(__dirname, "..", "..");
/** Most words the README may have. */
const README_WORDS = 1_500;
/** Most words from the top of the README to the end of its first deploy. */
const FIRST_DEPLOY_WORDS = 500;

function read(file: string): string {
  return readFileSync(join(ROOT, file), "utf8");
}

/** README.md and every Markdown page of docs/ (not the generated docs/api/). */
const PAGES = [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

/**
 * Words as this test counts them: the Markdown source without HTML comments (they are not shown) and without
 * the fence lines of code blocks, split on whitespace; a piece is a word when it holds a letter or a digit.
 * So prose, code and URLs count, while table pipes, `|---|` rules and lone punctuation do not.
 */
function countWords(markdown: string): number {
  return markdown
    .replace(/<!--[\s\S]*?-->/g, " ")
    .replace(/^\s*(`{3,}|~{3,}).*$/gm, " ")
    .split(/\s+/)
    .filter((piece) => /[\p{L}\p{N}]/u.test(piece)).length;
}

/**
 * The README up to its first deploy: from the top to the end of the closing fence of the first fenced code
 * block with a line (after any `#` comment is removed) that runs `pulumi up`. Undefined when no block does.
 */
function toFirstDeploy(markdown: string): string | undefined {
  const lines = markdown.split("\n");
  let open: string | undefined;
  let runsUp = false;
  for (const [i, line] of lines.entries()) {
    const fence = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (open === undefined) {
      if (fence !== undefined) {
        open = fence;
        runsUp = false;
      }
    } else if (fence?.startsWith(open) && line.trim() === fence) {
      if (runsUp) return lines.slice(0, i + 1).join("\n");
      open = undefined;
    } else if (/^pulumi up(\s|$)/.test(line.replace(/#.*$/, "").trim())) {
      runsUp = true;
    }
  }
  return undefined;
}

/** The Markdown with fenced blocks and inline code spans blanked, so code is never taken for a link. */
function prose(markdown: string): string {
  return markdown.replace(/^\s*(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\s*\1\s*$/gm, "").replace(/`[^`\n]*`/g, "");
}

/** Every link target of a page: inline links and images, reference definitions, href and src attributes. */
function linkTargets(markdown: string): string[] {
  const text = prose(markdown);
  const targets: string[] = [];
  for (const m of text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
    targets.push(m[1] ?? "");
  for (const m of text.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)) targets.push(m[1] ?? "");
  for (const m of text.matchAll(/\b(?:href|src)="([^"]+)"/g)) targets.push(m[1] ?? "");
  return targets;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, "")
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The anchors of a page's headings (outside code blocks), numbered as GitHub numbers repeated ones. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const m of prose(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(m[1] ?? "");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    result.add(n === 0 ? base : `${base}-${n}`);
  }
  return result;
}

let packedCache: Set<string> | undefined;
/**
 * The files `npm pack` puts in the tarball, as npm itself decides from package.json "files" (and the files it
 * always adds): `npm pack --dry-run --json`, offline, with no scripts. Paths relative to the package root.
 */
function packed(): Set<string> {
  if (packedCache === undefined) {
    const output = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts", "--offline"], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 25_000,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, npm_config_update_notifier: "false", npm_config_fund: "false" },
    });
    const [pack] = JSON.parse(output) as Array<{ files: Array<{ path: string }> }>;
    packedCache = new Set((pack?.files ?? []).map((f) => f.path));
  }
  return packedCache;
}

/** A repository path in POSIX form. */
function posixPath(path: string): string {
  return path.split(sep).join(posix.sep);
}

/** Every `test/...` path a page names (in prose or code), trailing punctuation dropped. */
function testPaths(markdown: string): string[] {
  return [...markdown.matchAll(/(?<![\w./-])test\/[\w.*/-]*/g)].map((m) => m[0].replace(/[.,;:]+$/, ""));
}

/** Whether a repository path exists; a `*` in its last part matches any characters of a file name there. */
function pathExists(path: string): boolean {
  if (!path.includes("*")) return existsSync(join(ROOT, path));
  const dir = posix.dirname(path);
  const pattern = new RegExp(
    `^${posix
      .basename(path)
      .split("*")
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
      .join(".*")}$`,
  );
  return existsSync(join(ROOT, dir)) && readdirSync(join(ROOT, dir)).some((name) => pattern.test(name));
}

describe("the README's length", () => {
  const readme = read("README.md");
  const total = countWords(readme);
  const firstDeploy = toFirstDeploy(readme);
  const toDeploy = firstDeploy === undefined ? undefined : countWords(firstDeploy);
  console.log(
    `README.md: ${total} words (at most ${README_WORDS}); ${toDeploy ?? "no"} words from the top to the end of the first block that runs \`pulumi up\` (at most ${FIRST_DEPLOY_WORDS})`,
  );

  it(`is at most ${README_WORDS} words`, () => {
    expect(total).toBeLessThanOrEqual(README_WORDS);
  });

  it(`reaches its first \`pulumi up\` within ${FIRST_DEPLOY_WORDS} words`, () => {
    expect(toDeploy, "no fenced block of README.md runs `pulumi up`").toBeDefined();
    expect(toDeploy).toBeLessThanOrEqual(FIRST_DEPLOY_WORDS);
  });

  it("counts words as a reader sees them: table cells and code, not HTML comments; finds the first block that runs `pulumi up`", () => {
    expect(countWords("| a | `b` |\n|---|---|\n<!-- hidden words -->\n```sh\nnpm test # 2\n```")).toBe(5);
    expect(toFirstDeploy("x\n```sh\npulumi preview\n```\ny\n```sh\npulumi up   # go\n```\nz")).toBe(
      "x\n```sh\npulumi preview\n```\ny\n```sh\npulumi up   # go\n```",
    );
    expect(toFirstDeploy("```sh\n# pulumi up\npulumi upgrade\n```")).toBeUndefined();
  });

  it("shows a contributor the two commands on a fresh machine", () => {
    expect(readme).toContain("npm ci && npm start");
    expect(readme).toContain("npm test");
  });
});

/** Most words of a docs/ page's opening paragraph, the one that says which question the page answers. */
const OPENING_WORDS = 90;
/** Most words from the top of a docs/ page to its first table or code block: the answer to most readers. */
const FIRST_ANSWER_WORDS = 200;

describe("each page of docs/ opens with what a reader needs from it", () => {
  it.each(PAGES.filter((page) => page.startsWith("docs/")))(
    `%s: a question in the first paragraph (at most ${OPENING_WORDS} words), a table or example within ${FIRST_ANSWER_WORDS}`,
    (page) => {
      // An HTML comment (a generated page's notice) is not what a reader sees first.
      const body = read(page)
        .replace(/^# .*\n+/, "")
        .replace(/^<!--[\s\S]*?-->\n+/, "");
      const opening = body.split(/\n\s*\n/)[0] ?? "";
      expect(opening, "the first paragraph").toContain("?");
      expect(countWords(opening)).toBeLessThanOrEqual(OPENING_WORDS);
      const firstAnswer = body.search(/^(\||```)/m);
      expect(firstAnswer, "a table or a code block").toBeGreaterThan(-1);
      expect(countWords(body.slice(0, firstAnswer))).toBeLessThanOrEqual(FIRST_ANSWER_WORDS);
    },
  );
});

describe("links of README.md and docs/*.md", () => {
  it.each(PAGES)(
    "%s: every relative link is to a file the npm package ships (and its anchor exists)",
    (page) => {
      const problems: string[] = [];
      for (const target of linkTargets(read(page))) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // absolute: https:, mailto:
        const [path = "", anchor] = target.split("#");
        const file =
          path === "" ? page : posixPath(relative(ROOT, join(ROOT, dirname(page), decodeURI(path))));
        if (file.startsWith("..")) problems.push(`${target}: outside the package`);
        else if (!existsSync(join(ROOT, file)) || !statSync(join(ROOT, file)).isFile())
          problems.push(`${target}: no file ${file}`);
        else if (!packed().has(file)) problems.push(`${target}: ${file} is not in the npm package ("files")`);
        else if (anchor !== undefined && file.endsWith(".md") && !anchors(read(file)).has(anchor))
          problems.push(`${target}: ${file} has no heading #${anchor}`);
      }
      expect(problems).toEqual([]);
    },
  );
});

describe("tests named by the docs", () => {
  it.each(PAGES)("%s: every test/... path it names exists", (page) => {
    expect(testPaths(read(page)).filter((path) => !pathExists(path))).toEqual([]);
  });

  it("docs/guarantees.md: one line per guarantee, each naming the test file(s) that prove it", () => {
    const lines = read("docs/guarantees.md").split("\n");
    const separator = (line = "") => /^\|(\s*:?-+:?\s*\|)+\s*$/.test(line);
    // Table rows, less each table's header (the line above a separator) and separator.
    const rows = lines.filter(
      (line, i) => line.startsWith("|") && !separator(line) && !separator(lines[i + 1]),
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.filter((row) => testPaths(row).length === 0)).toEqual([]);
  });
});

describe("one version", () => {
  const { version } = JSON.parse(read("package.json")) as { version: string };

  it("CHANGELOG.md's newest heading is package.json's version", () => {
    const newest = /^## (.+)$/m.exec(read("CHANGELOG.md"))?.[1] ?? "";
    expect(/\d+\.\d+\.\d+/.exec(newest)?.[0], newest).toBe(version);
  });

  it("every version of this package the README names is package.json's", () => {
    const named = [
      ...read("README.md").matchAll(/\b(?:[Vv]ersion |pulumi-shipping-webhooks@)(\d+\.\d+\.\d+)\b/g),
    ].map((m) => m[1]);
    expect(named.length).toBeGreaterThan(0);
    expect(new Set(named)).toEqual(new Set([version]));
  });
});
