import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, readlinkSync, renameSync, rmSync, symlinkSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";

/** Hex characters of the folder's hash that name its linked root (64 bits: no collision among a user's CLIs). */
const ROOT_NAME_HEX_CHARS = 16;

/** `${XDG_CACHE_HOME:-~/.cache}/pulumi-shipping-webhooks/pulumi-cli-roots`: where linked roots are kept. */
function linkedRootsFolder(env: NodeJS.ProcessEnv = process.env): string {
  const cache =
    env.XDG_CACHE_HOME !== undefined && env.XDG_CACHE_HOME !== ""
      ? env.XDG_CACHE_HOME
      : join(homedir(), ".cache");
  return join(cache, "pulumi-shipping-webhooks", "pulumi-cli-roots");
}

/**
 * A root (a folder whose `bin/pulumi` is the CLI) for a CLI that is not laid out as `<root>/bin/pulumi`, such
 * as the official Linux tarball (`pulumi/pulumi` with its plugins beside it): `<linkedRootsFolder>/<hash>/bin`
 * is a symbolic link to the CLI's folder. The Automation API (`PulumiCommand.get({ root })`), and everything
 * here that takes a root, then run that CLI with its plugins. The same folder always gets the same root;
 * the link is made by an atomic rename, so processes that ask at the same time agree.
 */
export function linkedCliRoot(binary: string, env: NodeJS.ProcessEnv = process.env): string {
  const folder = dirname(resolve(binary));
  const hash = createHash("sha256").update(folder).digest("hex").slice(0, ROOT_NAME_HEX_CHARS);
  const root = join(linkedRootsFolder(env), hash);
  const link = join(root, "bin");
  if (linkTarget(link) === folder) return root;
  mkdirSync(root, { recursive: true });
  const pending = `${link}.${process.pid}-${randomBytes(4).toString("hex")}`;
  symlinkSync(folder, pending);
  try {
    renameSync(pending, link);
  } catch (error) {
    rmSync(pending, { force: true });
    throw new Error(`could not link ${link} to the Pulumi CLI's folder ${folder}`, { cause: error });
  }
  return root;
}

/** Where the symbolic link `path` points, or undefined when it is no link. */
function linkTarget(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}
