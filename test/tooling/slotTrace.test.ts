/**
 * The slot-time trace (provider/operations/trace.ts): with SHIPPING_TRACE_FILE set, each engine call
 * writes one JSON line whose phases add up to its time and name what it waited for, with no key, URL, shop or
 * hook in it; without it, nothing is written, also while a traced provider runs beside it in the process. The
 * summary (scripts/bench/slotTrace.ts) reads those lines.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SlotTrace, TRACE_FILE_VARIABLE, type TraceLine, waitFor } from "../../provider/operations/trace";
import { IdBatcher } from "../../provider/writes/idBatcher";
import { parseTrace, percentile, summariseTrace, traceTable } from "../../scripts/bench/slotTrace";
import { useAcmeSimulator } from "../support/acmeSimulator";
import { freshProvider, type ProviderRuntime } from "../support/provider";
import { ACME_KEY, GLOBEX_KEY, leaksOf } from "../support/shops";

const HOOKS = ["order_status_change", "shipment_status_change", "shipment_label_created"];

const acme = useAcmeSimulator();
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "slot-trace-"));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/**
 * One deployment checks and creates (together, as the engine does) the shop's three hooks; the next reads,
 * diffs and deletes them (a delete in the deployment that created the id deletes nothing). The calls made.
 */
async function lifecycle(provider: () => Promise<ProviderRuntime>, urlBase: string): Promise<number> {
  const inputs = HOOKS.map((hook) => ({ hook, url: `${urlBase}/${hook}` }));
  const up = await provider();
  for (const i of inputs) expect((await up.check({}, i)).failures).toEqual([]);
  const created = await Promise.all(inputs.map((i) => up.create(i)));
  const outs: Record<string, unknown>[] = created.map((c) => ({ ...c.outs }));
  const next = await provider();
  await Promise.all(created.map((c, i) => next.read(c.id, outs[i] ?? {})));
  await Promise.all(created.map((c, i) => next.diff(c.id, outs[i] ?? {}, inputs[i] ?? {})));
  await Promise.all(created.map((c, i) => next.deleteSubscription(c.id, outs[i] ?? {})));
  return inputs.length * 5;
}

const config = (key: string) => ({ "shipping:baseUrl": acme.sim.baseUrl, "shipping:apiKey": key });

describe("the slot-time trace", () => {
  it("writes a line per engine call whose phases add up to its time, with no key, URL, shop or hook", async () => {
    const file = join(dir, "traced.jsonl");
    const traced = () => freshProvider(config(ACME_KEY), { ...process.env, [TRACE_FILE_VARIABLE]: file });
    // Beside it, in the same process: providers whose trace is off (an empty name is off too).
    const untraced = () => freshProvider(config(GLOBEX_KEY), { ...process.env, [TRACE_FILE_VARIABLE]: "" });
    const [calls] = await Promise.all([
      lifecycle(traced, "https://hooks.example.com/traced"),
      lifecycle(untraced, "https://hooks.example.com/untraced"),
    ]);
    expect(acme.sim.subscriptions("acme")).toEqual([]);
    expect(acme.sim.subscriptions("globex")).toEqual([]);

    const text = readFileSync(file, "utf8");
    const lines: TraceLine[] = parseTrace(text);
    expect(lines).toHaveLength(calls);
    expect(readdirSync(dir)).toEqual(["traced.jsonl"]);
    const count = (op: string) => lines.filter((l) => l.op === op).length;
    for (const op of ["check", "create", "read", "diff", "delete"]) expect(count(op)).toBe(HOOKS.length);
    for (const line of lines) {
      expect(line.ok).toBe(true);
      const sum = Object.values(line.phases).reduce((a, b) => a + (b ?? 0), 0);
      // Each phase and the total are rounded to 0.01 ms.
      expect(Math.abs(sum - line.ms)).toBeLessThanOrEqual(0.01 * (Object.keys(line.phases).length + 1));
      expect(line.ms).toBeGreaterThanOrEqual(0);
    }
    const creates = lines.filter((l) => l.op === "create");
    // The three creates went out as one POST: each spent time in it, and the batch says it joined three.
    for (const c of creates) {
      expect(c.phases.post).toBeGreaterThan(0);
      expect(c.phases.batchWindow).toBeGreaterThan(0);
      expect(c.batch).toMatchObject({ create: 3 });
    }
    expect(creates.some((c) => (c.phases.readBack ?? 0) > 0)).toBe(true);
    for (const d of lines.filter((l) => l.op === "delete")) {
      expect(d.phases.delete).toBeGreaterThan(0);
      expect(d.phases.recheck).toBeDefined();
      // A shop's deletes never wait out a window: sent at once, or when the shop's DELETE in flight ended.
      expect(String(d.batch?.deleteFlush)).toMatch(/^(free|afterRun)$/);
    }
    expect(lines.filter((l) => l.op === "check").some((l) => (l.phases.listing ?? 0) > 0)).toBe(true);

    expect(leaksOf(ACME_KEY, text)).toEqual([]);
    for (const never of [
      acme.sim.baseUrl,
      "127.0.0.1",
      "localhost",
      "https://",
      "hooks.example.com",
      "acme",
      ...HOOKS,
    ])
      expect(text).not.toContain(never);
  });

  it("counts a delete's wait for its shop's DELETE in flight as the lane, not as a batch window", async () => {
    const file = join(dir, "lane.jsonl");
    const trace = SlotTrace.from({ [TRACE_FILE_VARIABLE]: file }) as SlotTrace;
    let started = 0;
    let queued: () => void = () => undefined;
    const secondQueued = new Promise<void>((resolve) => {
      queued = resolve;
    });
    // A shop's DELETE that takes 60 ms at the service (as the bench's added latency does), counted from when
    // the second delete is queued behind it: that one waits in the lane for at least as long.
    const deletes = new IdBatcher<string, true>(
      (shop) => shop,
      async (_shop, ids) => {
        started += 1;
        await secondQueued;
        await waitFor("delete", () => new Promise((resolve) => setTimeout(resolve, 60)));
        return new Map(ids.map((id) => [id, true as const]));
      },
      { whileInFlight: true, traceAs: "delete" },
    );
    const first = trace.run("delete", () => waitFor("batchWindow", () => deletes.load("shop", 1)));
    await vi.waitFor(() => expect(started).toBe(1), { timeout: 1_000, interval: 1 });
    const second = trace.run("delete", () => waitFor("batchWindow", () => deletes.load("shop", 2)));
    queued();
    await Promise.all([first, second]);
    const [, waited] = parseTrace(readFileSync(file, "utf8"));
    expect(waited?.phases.lane).toBeGreaterThanOrEqual(30);
    expect(waited?.phases.batchWindow ?? 0).toBeLessThan(waited?.phases.lane ?? 0);
    expect(waited?.batch).toMatchObject({ delete: 1, deleteFlush: "afterRun" });
  });

  it("writes nothing when SHIPPING_TRACE_FILE is not set", async () => {
    const { [TRACE_FILE_VARIABLE]: _unset, ...env } = process.env;
    const before = new Set(readdirSync(dir));
    await lifecycle(() => freshProvider(config(ACME_KEY), env), "https://hooks.example.com/quiet");
    expect(acme.sim.subscriptions("acme")).toEqual([]);
    expect(new Set(readdirSync(dir))).toEqual(before);
  });

  it("summarises per operation: count, median, p95 and each phase's share of the time", () => {
    const line = (op: TraceLine["op"], ms: number, phases: TraceLine["phases"]): TraceLine => ({
      v: 1,
      op,
      at: 0,
      ms,
      ok: true,
      phases,
      pid: 1,
    });
    const rows = summariseTrace([
      line("create", 100, { own: 10, post: 60, readBack: 30 }),
      line("create", 300, { own: 10, lane: 200, post: 60, readBack: 30 }),
      { ...line("create", 200, { own: 20, post: 180 }), batch: { create: 2, createFlush: "idle" } },
      line("delete", 50, { own: 50 }),
    ]);
    expect(rows.map((r) => r.op)).toEqual(["create", "delete"]);
    const [create] = rows;
    expect(create).toMatchObject({ count: 3, failed: 0, medianMs: 200, p95Ms: 300, medianBatch: 2 });
    expect(create?.shares.post).toBeCloseTo(300 / 600);
    expect(create?.shares.lane).toBeCloseTo(200 / 600);
    const shares = Object.values(create?.shares ?? {}).reduce((a, b) => a + (b ?? 0), 0);
    expect(shares).toBeCloseTo(1);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95)).toBe(10);
    const table = traceTable(rows);
    expect(table).toContain("| create | 3 | 200 ms | 300 ms | 2 | 7% | 33% | 50% | 10% |");
  });
});
