/** One JSON string per answer object, shared by everything that sends it. */

const serialised = new WeakMap<object, string>();

/**
 * JSON.stringify of an answer, made once per object: the idempotency record, the HTTP answer and
 * the ws `new_ping` frame of a sent ping (the same object) share one string. Answers are built
 * for the response and not changed afterwards.
 */
export function jsonOf(value: unknown): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value ?? null);
  let json = serialised.get(value);
  if (json === undefined) {
    json = JSON.stringify(value);
    serialised.set(value, json);
  }
  return json;
}
