/**
 * Installing the package from a git URL, as a project can before it is published: npm clones the
 * repository, installs its devDependencies, runs its `prepare` (which builds dist/) and packs it. Here the URL
 * is `git+file://` of a fresh copy of this checkout committed to a new repository, so it has no dist/ and no
 * node_modules, as a clone from the host has not. Judged by what the installed package can do: its simulator
 * library loads and its `shipping-api-sim` command runs. (test/docs/tryIt.e2e.test.ts deploys from a tarball.)
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { copyAsClone } from "../support/cleanClone";
import { temporaryRoot } from "../support/consumer";
import { runOk } from "../support/process";

/** npm's clone, a full devDependency install and a build on a loaded 2-core machine. */
const INSTALL_DEADLINE_MS = 480_000;

const root = temporaryRoot();
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** process.env as a user's shell has it: none of the npm_* variables of an `npm run` that started vitest. */
function shellEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env))
    if (!/^npm_/i.test(name) && name !== "INIT_CWD") env[name] = value;
  return { ...env, npm_config_prefer_offline: "true", npm_config_update_notifier: "false" };
}

describe("npm install git+<URL of the repository>", () => {
  it("builds the package from a fresh clone, so that its library and command work", async () => {
    const repository = join(root, "repository");
    copyAsClone(repository);
    expect(existsSync(join(repository, "dist"))).toBe(false);
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=test", "-c", "user.email=test@example.com", ...args], {
        cwd: repository,
        stdio: "ignore",
      });
    git("init", "--quiet");
    git("add", "--all");
    git("commit", "--quiet", "--no-verify", "--message", "a clone of the checkout");

    const consumer = join(root, "consumer");
    mkdirSync(consumer);
    writeFileSync(join(consumer, "package.json"), `${JSON.stringify({ name: "consumer", private: true })}\n`);
    const env = shellEnv();
    await runOk("npm", ["install", "--no-audit", "--no-fund", `git+file://${repository}`], {
      cwd: consumer,
      env,
      deadlineMs: INSTALL_DEADLINE_MS,
    });

    const loads = await runOk(
      process.execPath,
      ["-e", 'process.stdout.write(typeof require("pulumi-shipping-webhooks/simulator").startSimulator)'],
      { cwd: consumer, env, deadlineMs: 60_000 },
    );
    expect(loads.stdout).toBe("function");
    const help = await runOk(join(consumer, "node_modules", ".bin", "shipping-api-sim"), ["--help"], {
      cwd: consumer,
      env,
      deadlineMs: 60_000,
    });
    expect(help.stdout).toContain("Usage: shipping-api-sim");
  });
});
