/**
 * Control writes are as durable as API writes: saved before they are answered, 500 when the save fails
 * (naming no absolute path), and leftovers of interrupted saves are removed at start.
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startSimulator } from "../../simulator/index";
import { api, call, expectErrorShape, postAfterDataFolderGone, startSim, subs } from "./helpers";

const A = "https://example.com/a";

async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), "sim-durable-"));
}

describe("POST /__sim/reset", () => {
  it("is on disk when it is answered", async () => {
    const dataFile = join(await tempDir(), "state.json");
    const sim = await startSim({ dataFile });
    await api(sim, "POST", "/webhook_subscriptions", { body: subs(["order_status_change", A]) });
    expect(JSON.parse(readFileSync(dataFile, "utf8")).nextId).toBe(2);
    expect((await call(sim.baseUrl, "POST", "/__sim/reset")).status).toBe(204);
    // Read at once, without close() or any flush: the answer promised it is durable.
    expect(JSON.parse(readFileSync(dataFile, "utf8"))).toEqual({
      version: 1,
      nextId: 1,
      shops: { demo: [] },
    });
  });

  it("answers 500 naming no absolute path when the save fails; the library's reset() rejects", async () => {
    const dir = await tempDir();
    const dataFile = join(dir, "state.json");
    const sim = await startSim({ dataFile });
    await api(sim, "POST", "/webhook_subscriptions", { body: subs(["order_status_change", A]) });
    rmSync(dir, { recursive: true });
    const reply = await call(sim.baseUrl, "POST", "/__sim/reset");
    expect(reply.status).toBe(500);
    const item = expectErrorShape(reply);
    expect(item.message).toMatch(/could not save its data file "state\.json" \(ENOENT\)/);
    expect(reply.text).not.toContain(dir);
    expect(reply.text).not.toContain(tmpdir());
    expect(sim.state()).toEqual({ nextId: 1, shops: { demo: [] } });
    const error = await sim.reset().then(
      () => undefined,
      (e: unknown) => e as Error & { cause?: NodeJS.ErrnoException },
    );
    expect(error?.message).toMatch(/could not save its data file/);
    expect(error?.cause?.code).toBe("ENOENT");
  });
});

describe("a failed API write", () => {
  it("answers 500 naming the file's base name only", async () => {
    const { dir, reply } = await postAfterDataFolderGone();
    expect(reply.status).toBe(500);
    expect(expectErrorShape(reply).message).toMatch(/"state\.json" \(ENOENT\); the change is kept in memory/);
    expect(reply.text).not.toContain(dir);
  });
});

describe("start", () => {
  it("removes the temporary files of interrupted saves of its data file, and nothing else", async () => {
    const dir = await tempDir();
    const dataFile = join(dir, "state.json");
    const leftovers = [".state.json.4242.0badf00d.tmp", ".state.json.1.deadbeef.tmp"];
    const kept = [".other.json.4242.0badf00d.tmp", "state.json.bak", ".state.json.x.tmp"];
    for (const name of [...leftovers, ...kept]) writeFileSync(join(dir, name), "{ half a sav");
    // By hand, not startSim: the test closes it itself, then reads what close left in the folder.
    const sim = await startSimulator({ dataFile });
    expect(readdirSync(dir).sort()).toEqual([...kept].sort());
    await sim.close();
    for (const name of leftovers) expect(existsSync(join(dir, name))).toBe(false);
  });
});
