import { jest } from '@jest/globals';
import { scopeCacheTtlMs, roleTemplates } from '../src/domain/index.js';
import { ScopeCache } from '../src/scope-cache.js';

beforeEach(() => {
  jest.useFakeTimers();
});

afterEach(() => {
  jest.useRealTimers();
});

describe('identity scope cache (kit TTL + LRU cache)', () => {
  it('keeps a standard user’s scopes 5 minutes, an admin’s 10, system scopes 30', () => {
    const cache = new ScopeCache();
    const standard = ['notes.view'];
    const admin = [...roleTemplates.admin];
    const system = ['system.tenants.create'];
    cache.set('t1', 'standard', standard, scopeCacheTtlMs({ role: 'standard', scopes: standard }));
    cache.set('t1', 'admin', admin, scopeCacheTtlMs({ role: 'admin', scopes: admin }));
    cache.set('t1', 'system', system, scopeCacheTtlMs({ role: 'admin', scopes: system }));
    jest.advanceTimersByTime(299_999);
    expect(cache.get('t1', 'standard')).toEqual(standard);
    jest.advanceTimersByTime(2);
    expect(cache.get('t1', 'standard')).toBeUndefined();
    expect(cache.get('t1', 'admin')).toEqual(admin);
    jest.advanceTimersByTime(300_000);
    expect(cache.get('t1', 'admin')).toBeUndefined();
    expect(cache.get('t1', 'system')).toEqual(system);
    jest.advanceTimersByTime(1_200_000);
    expect(cache.get('t1', 'system')).toBeUndefined();
  });

  it('drops a whole tenant at once and leaves other tenants alone', () => {
    const cache = new ScopeCache();
    cache.set('t1', 'a', ['x'], 300_000);
    cache.set('t1', 'b', ['y'], 300_000);
    cache.set('t10', 'a', ['z'], 300_000);
    cache.invalidateTenant('t1');
    expect(cache.get('t1', 'a')).toBeUndefined();
    expect(cache.get('t1', 'b')).toBeUndefined();
    expect(cache.get('t10', 'a')).toEqual(['z']);
  });
});
