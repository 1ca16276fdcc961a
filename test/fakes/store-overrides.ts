/**
 * A ResponseStore that is `inner` except for the methods given: a fake at the storage port
 * for tests that change one behaviour (a stalled event-log write, a log that lost its end).
 * Every other method runs on `inner` itself, so its private state keeps working.
 */
import type { ResponseStore } from '../../src/ports/response-store';

export function withOverrides(inner: ResponseStore, overrides: Partial<ResponseStore>): ResponseStore {
  return new Proxy(inner, {
    get(target, property, receiver) {
      if (Object.hasOwn(overrides, property)) return overrides[property as keyof ResponseStore];
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
