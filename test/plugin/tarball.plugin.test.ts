/**
 * The plugin tarball (`npm run plugin:tarball`) as a user installs it: `pulumi plugin install resource shipping
 * <version> --file <tarball>` puts it in the CLI's plugin cache (the CLI runs `npm install` there), and a
 * program that names no plugin folder then subscribes and unsubscribes through it, judged by the live
 * subscriptions and the state.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PLUGIN_TYPE, pluginProgram, pluginResource, usePluginSimulator } from "../support/pluginProject";
import { LABELS } from "../support/services";

const ROOT = join(__dirname, "..", "..");
const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
const LABELS_URL = "https://hooks.example.com/labels";

/** The simulator of this file (reset before each test) and the plugin projects on it. */
const plugin = usePluginSimulator();
let outDir: string;
beforeAll(() => {
  outDir = mkdtempSync(join(tmpdir(), "plugin-tarball-"));
});
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe("the plugin tarball", () => {
  it("installs with `pulumi plugin install --file`, and a program without a plugin folder runs through it", async () => {
    const tarball = execFileSync(
      process.execPath,
      [join(ROOT, "dist", "scripts", "pluginTarball.js"), outDir],
      {
        encoding: "utf8",
        timeout: 180_000,
      },
    ).trim();
    expect(tarball).toMatch(new RegExp(`pulumi-resource-shipping-v${VERSION}-\\w+-\\w+\\.tar\\.gz$`));
    const project = await plugin.project(
      "plugin-tarball",
      pluginProgram(pluginResource("labels", `hook: "${LABELS}", url: "${LABELS_URL}"`)),
      { byFolder: false },
    );
    await project.ok(["plugin", "install", "resource", "shipping", VERSION, "--file", tarball]);
    const plugins = await project.ok(["plugin", "ls"]);
    expect(plugins.stdout).toMatch(new RegExp(`shipping\\s+resource\\s+${VERSION.replace(/\./g, "\\.")}`));

    await project.ok(["up", "--yes"]);
    expect(plugin.liveHooks()).toEqual([`${LABELS}=${LABELS_URL}`]);
    expect((await project.resources()).filter((r) => r.type === PLUGIN_TYPE)).toHaveLength(1);
    await project.ok(["destroy", "--yes"]);
    expect(plugin.liveHooks()).toEqual([]);
  });
});
