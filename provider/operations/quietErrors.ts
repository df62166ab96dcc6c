import { ShippingError } from "../errors/shippingError";

/** A console's `error` method. */
type ErrorWriter = (...data: unknown[]) => void;

/**
 * The dynamic-provider host prints every error that check, diff, read or delete throws, with its JavaScript
 * stack (`${error}: ${error.stack}`), as a message of the stack, and the engine then shows the same message on
 * the resource: three copies, two of them with frames of provider internals. This keeps the resource's one:
 * an error of this package that an operation throws is not printed again by the host.
 */
export class QuietErrors {
  /** The exact lines the host is about to print for errors just thrown (each dropped once). */
  readonly #expected = new Set<string>();

  /** Installs the filter on `target` (the host process's console). */
  constructor(target: { error: ErrorWriter }) {
    const print = target.error.bind(target);
    target.error = (...data: unknown[]) => {
      if (data.length === 1 && typeof data[0] === "string" && this.#expected.delete(data[0])) return;
      print(...data);
    };
  }

  /** `operation`, whose errors of this package the host will not print (the engine shows them). */
  wrap<A extends unknown[], R>(operation: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
    return async (...args) => {
      try {
        return await operation(...args);
      } catch (error) {
        if (error instanceof ShippingError) this.#expected.add(`${error}: ${error.stack}`);
        throw error;
      }
    };
  }
}
