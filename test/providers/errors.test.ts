import { describe, expect, it } from 'vitest';
import {
  formatSeconds,
  parseRetryAfter,
  redact,
  serverDetail,
} from '../../src/providers/errors.js';

const headers = (init: Record<string, string>): Headers => new Headers(init);

describe('provider error helpers', () => {
  it('parses Retry-After as seconds, HTTP date, and retry-after-ms first', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter(headers({ 'retry-after': '2.5' }), now)).toBe(2500);
    expect(parseRetryAfter(headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:30 GMT' }), now)).toBe(
      30_000,
    );
    expect(parseRetryAfter(headers({ 'retry-after': 'Tue, 31 Dec 2024 00:00:00 GMT' }), now)).toBe(
      0,
    );
    expect(parseRetryAfter(headers({ 'retry-after': '9', 'retry-after-ms': '120' }), now)).toBe(
      120,
    );
    expect(parseRetryAfter(headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(parseRetryAfter(headers({}), now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });

  it('reads the error detail from the body shapes servers use', () => {
    expect(serverDetail(undefined, '{"error":{"message":"bad model"}}')).toBe('bad model');
    expect(serverDetail(undefined, '{"error":"model \'x\' not found"}')).toBe(
      "model 'x' not found",
    );
    expect(serverDetail(undefined, '{"object":"error","message":"too long"}')).toBe('too long');
    expect(serverDetail(undefined, '{"detail":"Not Found"}')).toBe('Not Found');
    expect(serverDetail(undefined, '404 page not found\n')).toBe('404 page not found');
    expect(serverDetail(undefined, '<html><body>Bad Gateway</body></html>')).toBe('');
    expect(serverDetail(undefined, 'x'.repeat(1000))).toHaveLength(300);
  });

  it('redacts the key wherever it appears, and leaves tiny keys alone', () => {
    expect(redact('key sk-abc123 and sk-abc123', 'sk-abc123')).toBe(
      'key [redacted secret] and [redacted secret]',
    );
    expect(redact('a b c', 'a')).toBe('a b c');
    expect(redact('nothing', undefined)).toBe('nothing');
  });

  it('formats seconds briefly', () => {
    expect(formatSeconds(200)).toBe('0.2s');
    expect(formatSeconds(7000)).toBe('7s');
    expect(formatSeconds(60_000)).toBe('60s');
    expect(formatSeconds(12_400)).toBe('12s');
  });
});
