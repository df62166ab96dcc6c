/**
 * A stack driven through the provider's operations in the order the Pulumi engine calls them, against a
 * simulator over loopback, without the engine: one provider object per deployment (the engine starts one
 * provider process per `preview`, `up`, `refresh` or `destroy`), and state kept as the engine keeps it (each
 * resource's inputs, id and the outputs the provider returned).
 *
 * The order modelled, which the engine tests (`*.engine.test.ts`, test/lifecycle/lifecycle.e2e.test.ts) check with the CLI:
 * - `up`: for each declared resource in program order (the engine's is the order the registrations arrive in,
 *   which only `dependsOn` fixes: a test that needs one resource's steps before another's check says so),
 *   `check` (old inputs, new inputs), then `diff` (id, old outputs, new inputs) when it is recorded; its step
 *   starts once the next resource was checked and diffed (the engine saves a checkpoint before each step
 *   begins, so the check of a resource the program already registered comes first) and runs while later ones
 *   are checked (with `parallel: 1`, one step at a time). A resource with `dependsOn` is registered, and
 *   checked, only after the steps of what it depends on ended. A replacement creates before it deletes, and
 *   the old resource's delete waits for the end, with the deletes of resources the program no longer
 *   declares; with `deleteBeforeReplace` its delete comes first. `replace` (`up --replace`) replaces with no
 *   `diff`. A failed step stops new steps and every delete (unless `continueOnError`). A failed check or diff
 *   ends the deployment, `continueOnError` or not: no later resource is checked and no delete runs (the
 *   engine's step generator bails, step_generator.go; only its step executor heeds the flag). `refresh: true`
 *   reads first, in the same deployment. `target` steps only the named resources and deletes nothing else.
 * - `preview`: `check` and `diff`, nothing else (reads first with `refresh: true`); nothing is saved.
 * - `refresh`: `read` of every resource; one read without an id drops it.
 * - `destroy`: `delete` of every resource, at once.
 * - `refresh` and `destroy` run with the provider configuration of the last `up`, also of one that failed.
 */
import { ShippingUnconfirmedWriteError } from "../../provider/errors";
import { freshProvider, type ProviderRuntime } from "./provider";

/** Stack configuration, as `pulumi config` holds it (`shipping:apiKey`, `shipping:shops` as JSON, ...). */
export type Config = Record<string, string>;

/** One resource of the program. */
export interface Declaration {
  readonly name: string;
  readonly hook: string;
  readonly url: string;
  readonly shop?: string;
  /** The resource opts in to overwrite a subscription of its hook made outside the stack. */
  readonly takeOver?: boolean;
  readonly deleteBeforeReplace?: boolean;
  /** Names of resources whose steps end before this one is registered. */
  readonly dependsOn?: readonly string[];
}

/** One resource as state records it. */
interface Resource {
  readonly name: string;
  readonly id: string;
  readonly inputs: Record<string, unknown>;
  readonly outs: Record<string, unknown>;
}

/** How a command ended: every failure as `name: message`, and what it did per resource. */
interface Outcome {
  readonly ok: boolean;
  readonly errors: string[];
  /** The error text of all failures, one per line (for `toContain` and `toMatch`). */
  readonly error: string;
  readonly steps: Record<"same" | "create" | "replace" | "update" | "delete" | "read", number>;
}

/** Options of `up`, as the CLI's flags. */
export interface UpOptions {
  readonly refresh?: boolean;
  readonly replace?: readonly string[];
  readonly target?: readonly string[];
  readonly parallel?: 1;
  readonly continueOnError?: boolean;
}

const inputsOf = (d: Declaration): Record<string, unknown> => ({
  hook: d.hook,
  url: d.url,
  ...(d.shop !== undefined ? { shop: d.shop } : {}),
  ...(d.takeOver !== undefined ? { takeOver: d.takeOver } : {}),
});

class Run {
  readonly errors: string[] = [];
  readonly steps = { same: 0, create: 0, replace: 0, update: 0, delete: 0, read: 0 };
  fail(name: string, error: unknown): void {
    this.errors.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
  outcome(): Outcome {
    return {
      ok: this.errors.length === 0,
      errors: this.errors,
      error: this.errors.join("\n"),
      steps: this.steps,
    };
  }
}

/** A stack of one project whose state this object keeps; `config` is its stack configuration. */
export class Stack {
  /** What state records: the resources, and replaced ones waiting for their delete. */
  resources: Resource[] = [];
  readonly #condemned = new WeakSet<Resource>();
  #deployed: Config | undefined;

  constructor(public config: Config) {}

  /** Sets stack settings; an undefined value removes the setting. */
  set(patch: Record<string, string | undefined>): void {
    const next: Config = { ...this.config };
    for (const [key, value] of Object.entries(patch)) {
      if (value === undefined) delete next[key];
      else next[key] = value;
    }
    this.config = next;
  }

  /** The recorded resource of `name` (not a replaced one waiting for its delete). */
  resource(name: string): Resource | undefined {
    return this.resources.find((r) => r.name === name && !this.#condemned.has(r));
  }

  /** What state records per resource, as the simulator lists subscriptions: id, hook, url, sorted by id. */
  recorded(): Array<{ id: number; hook: unknown; url: unknown }> {
    return this.resources
      .map((r) => ({ id: Number(r.id), hook: r.outs.hook, url: r.outs.url }))
      .sort((a, b) => a.id - b.id);
  }

  async preview(declared: readonly Declaration[], options: { refresh?: boolean } = {}): Promise<Outcome> {
    const run = new Run();
    const provider = await freshProvider(this.config, {});
    const saved = this.resources;
    if (options.refresh) await this.#read(provider, run);
    for (const d of declared) {
      if (run.errors.length > 0) break;
      const old = this.resource(d.name);
      const inputs = await this.#check(provider, run, d, old);
      if (inputs === undefined || old === undefined) continue;
      const diff = await this.#diff(provider, run, d, old, inputs);
      if (diff !== undefined)
        run.steps[!diff.changes ? "same" : diff.replaces.length > 0 ? "replace" : "update"]++;
    }
    this.resources = saved;
    return run.outcome();
  }

  async up(declared: readonly Declaration[], options: UpOptions = {}): Promise<Outcome> {
    this.#deployed = { ...this.config };
    const run = new Run();
    const provider = await freshProvider(this.#deployed, {});
    if (options.refresh) await this.#read(provider, run);
    if (run.errors.length > 0) return run.outcome();
    const ended = new Map<string, Promise<unknown>>();
    let lane: Promise<unknown> = Promise.resolve();
    const waiting: Array<() => void> = [];
    /** A check or diff failed: the engine checks nothing more and runs no delete. */
    let stopped = false;
    const startWaiting = () => {
      for (const start of waiting.splice(0)) start();
    };
    for (const d of declared.filter((d) => options.target?.includes(d.name) ?? true)) {
      if (run.errors.length > 0 && !options.continueOnError) break;
      if (d.dependsOn !== undefined) startWaiting();
      await Promise.all((d.dependsOn ?? []).map((name) => ended.get(name)));
      const old = this.resource(d.name);
      const inputs = await this.#check(provider, run, d, old);
      if (inputs === undefined) {
        stopped = true;
        break;
      }
      let kind: "create" | "replace" | "update" | "same" = "create";
      if (old !== undefined && options.replace?.includes(d.name)) kind = "replace";
      else if (old !== undefined) {
        const diff = await this.#diff(provider, run, d, old, inputs);
        if (diff === undefined) {
          stopped = true;
          break;
        }
        kind = !diff.changes ? "same" : diff.replaces.length > 0 ? "replace" : "update";
      }
      startWaiting();
      run.steps[kind]++;
      if (kind === "same") continue;
      const step = () => this.#step(provider, d.name, kind, inputs, old, d.deleteBeforeReplace === true);
      let begin: () => void = () => undefined;
      const begun = new Promise<void>((resolve) => {
        begin = resolve;
      });
      waiting.push(begin);
      const previous = lane;
      const started = begun.then(() => (options.parallel === 1 ? previous.then(step) : step()));
      const settled = started.catch((error: unknown) => run.fail(d.name, error));
      lane = settled;
      ended.set(d.name, settled);
    }
    startWaiting();
    await Promise.all(ended.values());
    // The engine's --continue-on-error runs the deletes too (deployment_executor.go), failed steps or not; a
    // failed check or diff ended the deployment before them.
    if (stopped || (run.errors.length > 0 && !options.continueOnError)) return run.outcome();
    const doomed = this.resources.filter(
      (r) =>
        this.#condemned.has(r) || (options.target === undefined && !declared.some((d) => d.name === r.name)),
    );
    await this.#delete(provider, run, doomed);
    return run.outcome();
  }

  async refresh(): Promise<Outcome> {
    const run = new Run();
    await this.#read(await freshProvider(this.#deployed ?? this.config, {}), run);
    return run.outcome();
  }

  async destroy(options: { refresh?: boolean } = {}): Promise<Outcome> {
    const run = new Run();
    const provider = await freshProvider(this.#deployed ?? this.config, {});
    if (options.refresh) await this.#read(provider, run);
    if (run.errors.length === 0) await this.#delete(provider, run, this.resources);
    return run.outcome();
  }

  /** One resource's step of an `up`: an update, a create, or a replacement in the order the options say. */
  async #step(
    provider: ProviderRuntime,
    name: string,
    kind: "create" | "replace" | "update",
    inputs: Record<string, unknown>,
    old: Resource | undefined,
    deleteFirst: boolean,
  ): Promise<void> {
    if (kind === "update" && old !== undefined) {
      const { outs } = await provider.update(old.id, old.outs, inputs);
      this.resources = this.resources.map((r) => (r === old ? { ...old, inputs, outs } : r));
      return;
    }
    if (old !== undefined && deleteFirst) {
      await provider.deleteSubscription(old.id, old.outs);
      this.resources = this.resources.filter((r) => r !== old);
    }
    const record = (made: Resource) => {
      if (old !== undefined && !deleteFirst) this.#condemned.add(old); // deleted at the end of the `up`
      this.resources = [...this.resources, made];
    };
    try {
      const { id, outs } = await provider.create(inputs);
      record({ name, id, inputs, outs: { ...outs } });
    } catch (error) {
      // The engine records a write the provider reports as not yet confirmed, and fails the step.
      if (error instanceof ShippingUnconfirmedWriteError)
        record({ name, id: error.id, inputs, outs: { ...error.properties } });
      throw error;
    }
  }

  async #check(provider: ProviderRuntime, run: Run, d: Declaration, old: Resource | undefined) {
    try {
      const checked = await provider.check(old?.inputs ?? {}, inputsOf(d));
      if (checked.failures.length === 0) return checked.inputs;
      run.fail(d.name, checked.failures.map((f) => `${f.property}: ${f.reason}`).join("; "));
    } catch (error) {
      run.fail(d.name, error);
    }
    return undefined;
  }

  async #diff(
    provider: ProviderRuntime,
    run: Run,
    d: Declaration,
    old: Resource,
    inputs: Record<string, unknown>,
  ) {
    return provider.diff(old.id, old.outs, inputs).catch((error: unknown) => {
      run.fail(d.name, error);
      return undefined;
    });
  }

  async #read(provider: ProviderRuntime, run: Run): Promise<void> {
    await Promise.all(
      this.resources.map(async (r) => {
        try {
          const read = await provider.read(r.id, r.outs);
          run.steps.read++;
          const next = read.id === undefined ? [] : [{ ...r, id: read.id, outs: { ...read.props } }];
          for (const kept of next) if (this.#condemned.has(r)) this.#condemned.add(kept);
          this.resources = this.resources.flatMap((x) => (x === r ? next : [x]));
        } catch (error) {
          run.fail(r.name, error);
        }
      }),
    );
  }

  async #delete(provider: ProviderRuntime, run: Run, doomed: readonly Resource[]): Promise<void> {
    await Promise.all(
      doomed.map(async (r) => {
        try {
          await provider.deleteSubscription(r.id, r.outs);
          run.steps.delete++;
          this.resources = this.resources.filter((x) => x !== r);
        } catch (error) {
          run.fail(r.name, error);
        }
      }),
    );
  }
}
