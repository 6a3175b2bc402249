import { describe, expect, it } from 'vitest';
import { createLruCache } from './lru-cache.js';

describe('createLruCache', () => {
  it('keeps the entries used last, up to its limit', () => {
    const cache = createLruCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1);
    cache.set('c', 3);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(1);
    expect(cache.get('c')).toBe(3);
    cache.set('a', 4);
    cache.set('d', 5);
    expect([cache.get('a'), cache.get('c'), cache.get('d')]).toEqual([4, undefined, 5]);
    expect(cache.size).toBe(2);
  });
});
