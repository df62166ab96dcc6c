import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SimulatorStateError, startSimulator } from "../../simulator/index";
import { StateWriter } from "../../simulator/persistence";
import { api, call, expectErrorShape, postAfterDataFolderGone, startSim, subs } from "./helpers";

const A = "https://example.com/a";

async function tempFile(name = "state.json"): Promise<string> {
  return join(await mkdtemp(join(tmpdir(), "sim-state-")), name);
}

describe("persistence", () => {
  it("keeps subscriptions and the id counter across a restart", async () => {
    const dataFile = await tempFile();
    // By hand, not startSim: closed mid-test, so that a second simulator starts from its data file.
    const first = await startSimulator({ dataFile });
    await api(first, "POST", "/webhook_subscriptions", {
      body: subs(["order_status_change", A], ["shipment_label_created", A]),
    });
    await api(first, "DELETE", "/webhook_subscriptions/1");
    await first.close();

    const second = await startSim({ dataFile });
    expect(second.state()).toEqual({
      nextId: 3,
      shops: { demo: [{ id: 2, hook: "shipment_label_created", url: A }] },
    });
    const reply = await api(second, "POST", "/webhook_subscriptions", {
      body: subs(["order_status_change", A]),
    });
    expect(reply.json).toEqual({ data: { ids: [{ id: 3 }] } });
    expect(readdirSync(join(dataFile, ".."))).toEqual(["state.json"]);
  });

  it("writes the file before answering, as versioned JSON", async () => {
    const dataFile = await tempFile();
    const sim = await startSim({ dataFile });
    await api(sim, "POST", "/webhook_subscriptions", { body: subs(["order_status_change", A]) });
    expect(JSON.parse(readFileSync(dataFile, "utf8"))).toEqual({
      version: 1,
      nextId: 2,
      shops: { demo: [{ id: 1, hook: "order_status_change", url: A }] },
    });
  });

  it("starts empty on a missing file and creates its directory on the first save", async () => {
    const dataFile = join(await tempFile("nested"), "deeper", "state.json");
    const sim = await startSim({ dataFile });
    expect(sim.state()).toEqual({ nextId: 1, shops: { demo: [] } });
    expect(existsSync(dataFile)).toBe(false);
    await api(sim, "POST", "/webhook_subscriptions", { body: subs(["order_status_change", A]) });
    expect(existsSync(dataFile)).toBe(true);
  });

  it("does not write on reads", async () => {
    const dataFile = await tempFile();
    const sim = await startSim({ dataFile });
    await api(sim, "GET", "/webhook_subscriptions");
    await api(sim, "GET", "/webhook_subscriptions/1");
    expect(existsSync(dataFile)).toBe(false);
  });

  it("keeps shops of the file that the seed does not know", async () => {
    const dataFile = await tempFile();
    writeFileSync(
      dataFile,
      JSON.stringify({
        version: 1,
        nextId: 5,
        shops: { gone: [{ id: 4, hook: "order_status_change", url: A }] },
      }),
    );
    const sim = await startSim({ dataFile });
    await api(sim, "POST", "/webhook_subscriptions", { body: subs(["order_status_change", A]) });
    expect(JSON.parse(readFileSync(dataFile, "utf8")).shops).toEqual({
      demo: [{ id: 5, hook: "order_status_change", url: A }],
      gone: [{ id: 4, hook: "order_status_change", url: A }],
    });
  });

  it("persists a reset (through the control endpoint)", async () => {
    const dataFile = await tempFile();
    // By hand, not startSim: closed mid-test, so that a second simulator starts from its data file.
    const first = await startSimulator({ dataFile });
    await api(first, "POST", "/webhook_subscriptions", { body: subs(["order_status_change", A]) });
    expect((await call(first.baseUrl, "POST", "/__sim/reset")).status).toBe(204);
    await first.close();
    const second = await startSim({ dataFile });
    expect(second.state()).toEqual({ nextId: 1, shops: { demo: [] } });
  });

  it("answers 500 when the save fails, keeping the change in memory", async () => {
    const { sim, reply } = await postAfterDataFolderGone();
    expect(reply.status).toBe(500);
    expect(expectErrorShape(reply)).toMatchObject({ code: 0, title: "Internal server error" });
    expect(sim.subscriptions("demo")).toHaveLength(1);
  });

  it("StateWriter coalesces concurrent saves and every save sees its change", async () => {
    const dataFile = await tempFile();
    let n = 0;
    const writer = new StateWriter(dataFile, () => ({ nextId: ++n + 1, shops: {} }));
    const saves = [writer.save(), writer.save(), writer.save(), writer.save()];
    await Promise.all(saves);
    await writer.flush();
    expect(n).toBe(2);
    expect(JSON.parse(readFileSync(dataFile, "utf8")).nextId).toBe(3);
  });
});

describe("a bad data file is a SimulatorStateError, never a silent empty start", () => {
  const good = { version: 1, nextId: 3, shops: { demo: [{ id: 1, hook: "order_status_change", url: A }] } };
  it.each([
    ["not JSON", "{ nope", /is not valid JSON/],
    ["empty", "", /is not valid JSON/],
    ["wrong version", JSON.stringify({ ...good, version: 2 }), /version/],
    ["missing nextId", JSON.stringify({ version: 1, shops: {} }), /nextId/],
    [
      "bad hook",
      JSON.stringify({ ...good, shops: { demo: [{ id: 1, hook: "x", url: A }] } }),
      /shops\.demo\[0\]\.hook/,
    ],
    ["id not below nextId", JSON.stringify({ ...good, nextId: 1 }), /not below nextId/],
    [
      "duplicate id",
      JSON.stringify({ ...good, shops: { demo: good.shops.demo, b: good.shops.demo } }),
      /id 1 is used twice/,
    ],
    [
      "same hook twice",
      JSON.stringify({
        ...good,
        shops: { demo: [...good.shops.demo, { id: 2, hook: "order_status_change", url: A }] },
      }),
      /appears twice/,
    ],
    [
      "bad url",
      JSON.stringify({ ...good, shops: { demo: [{ id: 1, hook: "order_status_change", url: "http://x" }] } }),
      /https/,
    ],
  ])("%s", async (_name, content, problem) => {
    const dataFile = await tempFile();
    writeFileSync(dataFile, content);
    // startSimulator itself, not startSim: the start is what must fail.
    const error = await startSimulator({ dataFile }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SimulatorStateError);
    const message = (error as Error).message;
    expect(message).toContain(dataFile);
    expect(message).toMatch(problem);
    expect(message).toContain("move it aside or delete it to start empty");
    expect(readFileSync(dataFile, "utf8")).toBe(content);
  });

  it("refuses to start on a data file it cannot read (a directory), naming the error", async () => {
    const dataFile = await tempFile();
    mkdirSync(dataFile);
    await expect(startSimulator({ dataFile })).rejects.toThrow(/cannot be read \(EISDIR\)/);
  });
});
