/**
 * Plain objects keyed by client or file input (shop names, header names): built with own data properties,
 * so a key such as `__proto__` is stored as a key instead of changing the object's prototype.
 */

/** Set `record[key] = value` as an own, enumerable data property, whatever the key is. */
export function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}
