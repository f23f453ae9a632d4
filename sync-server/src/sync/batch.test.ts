/**
 * The batch's answer is written from each entry's JSON text (batchResponseJson): it must be the
 * very text `JSON.stringify({ results })` makes, whatever the keys and bodies hold.
 */
import { BatchResponse } from '@pingme/shared';
import { describe, expect, it } from 'vitest';
import { batchResponseJson, type BatchAnswer } from './batch';

const answer = (idempotencyKey: string, status: number, body: unknown): BatchAnswer => ({
  idempotencyKey,
  status,
  body,
  json: JSON.stringify(body),
});

describe('batchResponseJson', () => {
  it('is JSON.stringify of the results, each body as its text', () => {
    const results = [
      answer('0190a1b2-0000-7000-8000-000000000001', 201, {
        id: 'p1',
        text: 'Quote " backslash \\ newline \n emoji 🙂 \u2028',
        sender: { id: 'u1', firstName: 'Zoë', lastName: null },
        count: 3,
      }),
      answer('key with "quotes" and \\', 400, { error: 'Invalid request', code: 'bad' }),
      answer('k3', 0, { error: 'Not attempted: entry 1 must succeed first', notAttempted: true }),
      answer('k4', 200, []),
      { ...answer('k5', 201, { id: 'p5' }), change: 42 },
    ];
    const text = batchResponseJson(results);
    const plain = results.map(({ json: _json, ...result }) => result);
    expect(text).toBe(JSON.stringify({ results: plain }));
    expect(BatchResponse.parse(JSON.parse(text))).toEqual({ results: plain });
  });

  it('answers an empty list as an empty list', () => {
    expect(batchResponseJson([])).toBe('{"results":[]}');
  });
});
