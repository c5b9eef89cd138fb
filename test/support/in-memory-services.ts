import type { Access } from '../../src/access/domain/access.js';
import type { Admission, Principal, UsageReading } from '../../src/access/domain/admission.js';
import type { AppServices } from '../../src/app.js';
import { type Shared, share } from '../../src/infra/shared-result.js';
import type { Readiness, ReadinessReport } from '../../src/ops/store/readiness.js';
import type { ListParams, SearchParams, SuggestParams } from '../../src/wallpapers/params.js';
import type { Page, WallpaperRepository } from '../../src/wallpapers/store/repository.js';
import { toDetail } from '../../src/wallpapers/catalogued.js';
import type { Wallpaper } from '../../src/wallpapers/wallpaper.js';

/**
 * Services for tests of the HTTP edge alone: they keep the contracts of the real ones (shared
 * results, domain errors, admissions with quotas) with no Elasticsearch or Redis behind them.
 * The integration suite covers the real ones.
 */

export interface InMemoryRepository extends WallpaperRepository {
  /** Every call fails with this error while it is set. */
  failWith: Error | null;
  calls: number;
}

// A cursor position here is the offset after the page, in an index named 'memory'.
function page(items: Wallpaper[], { page: number, per_page, position }: ListParams): Shared<Page> {
  const start = position ? Number(position.after[0]) : (number - 1) * per_page;
  const slice = items.slice(start, start + per_page);
  return share({
    items: slice,
    total: items.length,
    ...(slice.length > 0 ? { last: { index: 'memory', after: [start + slice.length] } } : {}),
  });
}

function filtered(docs: readonly Wallpaper[], { category, resolution }: ListParams): Wallpaper[] {
  return docs.filter(
    (w) => (category === undefined || category.includes(w.category)) && (resolution === undefined || resolution.includes(w.resolution)),
  );
}

export function inMemoryRepository(docs: readonly Wallpaper[]): InMemoryRepository {
  const repository: InMemoryRepository = {
    failWith: null,
    calls: 0,
    async list(params: ListParams) {
      answer();
      const sorted = [...filtered(docs, params)].sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id);
      return page(sorted, params);
    },
    async search(params: SearchParams) {
      answer();
      const words = params.q.toLowerCase().split(/\s+/);
      const hits = filtered(docs, params).filter((w) => words.some((word) => `${w.title} ${w.description}`.toLowerCase().includes(word)));
      return page(
        hits.sort((a, b) => b.downloads - a.downloads || a.id - b.id),
        params,
      );
    },
    async suggest({ q, limit }: SuggestParams) {
      answer();
      const prefix = q.trim().toLowerCase();
      const titles = docs
        .map((w) => w.title)
        .filter((title) =>
          title
            .toLowerCase()
            .split(/\s+/)
            .some((word) => word.startsWith(prefix)),
        );
      return share({ texts: [...new Set(titles)].slice(0, limit) });
    },
    async getById(id: number) {
      answer();
      const found = docs.find((w) => w.id === id);
      return found ? share(toDetail(found)) : null;
    },
    async similar(id: number, perPage: number) {
      answer();
      const seed = docs.find((w) => w.id === id);
      if (!seed) return null;
      const alike = docs.filter((w) => w.id !== id && w.category === seed.category).slice(0, perPage);
      return share({ items: alike, total: alike.length });
    },
    async changes(after, perPage) {
      answer();
      // Every wallpaper once, as if loaded before the feed: number 0, in id order.
      const byId = [...docs].sort((a, b) => a.id - b.id).filter((w) => after === null || w.id > after.id);
      const items = byId.slice(0, perPage);
      const last = items.at(-1);
      return {
        items: items.map((w) => ({ id: w.id, change: 'upsert' as const, at: w.created_at, wallpaper: w })),
        more: byId.length > perPage,
        ...(last ? { last: { seq: 0, id: last.id } } : {}),
      };
    },
    async getByIds(ids: readonly number[]) {
      answer();
      const found = ids.map((id) => docs.find((w) => w.id === id));
      return share({ items: found.filter((w): w is Wallpaper => w !== undefined), missing: ids.filter((_, i) => found[i] === undefined) });
    },
  };
  function answer(): void {
    repository.calls++;
    if (repository.failWith) throw repository.failWith;
  }
  return repository;
}

export interface InMemoryAccess extends Access {
  /** Admission fails with this error while it is set (e.g. Redis unavailable). */
  failWith: Error | null;
  used: Map<string, number>;
}

/**
 * Keys are plain strings mapped to a tier; each account (one per key here) may make `limit`
 * requests in a window that never ends. Clients fail authentication `failureLimit` times before
 * their failing requests are blocked for a minute.
 */
export function inMemoryAccess(
  keys: Record<string, { tier: string; limit: number }>,
  { failureLimit = 100, windowSeconds = 3600 } = {},
): InMemoryAccess {
  const failures = new Map<string, number>();
  const served = new Set<string>();
  const access: InMemoryAccess = {
    failWith: null,
    used: new Map(),
    accountWithRoom: (apiKey) => (served.has(apiKey) && (access.used.get(apiKey) ?? 0) < (keys[apiKey]?.limit ?? 0) ? `acct_${apiKey}` : null),
    // Admission here answers at once: no request waits for another's.
    firstAnswer: () => null,
    async admit(apiKey: string): Promise<Admission> {
      if (access.failWith) throw access.failWith;
      const key = keys[apiKey];
      if (!key) return { outcome: 'invalid' };
      served.add(apiKey);
      const principal: Principal = { keyId: `key_${apiKey}`, accountId: `acct_${apiKey}`, tier: key.tier };
      const used = access.used.get(apiKey) ?? 0;
      const allowed = used < key.limit;
      if (allowed) access.used.set(apiKey, used + 1);
      const nowMs = Date.now();
      return {
        outcome: allowed ? 'allowed' : 'limited',
        principal,
        source: 'redis',
        quota: {
          tier: key.tier,
          limit: key.limit,
          remaining: key.limit - (allowed ? used + 1 : used),
          windowSeconds,
          resetMs: nowMs + windowSeconds * 1000,
          nowMs,
        },
      };
    },
    async usage(apiKey: string): Promise<UsageReading> {
      if (access.failWith) throw access.failWith;
      const key = keys[apiKey];
      if (!key) return { outcome: 'invalid' };
      const principal: Principal = { keyId: `key_${apiKey}`, accountId: `acct_${apiKey}`, tier: key.tier };
      const used = access.used.get(apiKey) ?? 0;
      const nowMs = Date.now();
      return {
        outcome: 'read',
        principal,
        quota: {
          tier: key.tier,
          limit: key.limit,
          remaining: Math.max(0, key.limit - used),
          windowSeconds,
          resetMs: nowMs + windowSeconds * 1000,
          nowMs,
        },
      };
    },
    blockedFor(client: string) {
      return (failures.get(client) ?? 0) >= failureLimit ? 60 : 0;
    },
    async recordFailure(client: string) {
      const count = (failures.get(client) ?? 0) + 1;
      failures.set(client, count);
      return count >= failureLimit ? 60 : 0;
    },
  };
  return access;
}

export interface FixedReadiness extends Readiness {
  report: ReadinessReport;
  drained: boolean;
}

export function fixedReadiness(ready = true): FixedReadiness {
  const readiness: FixedReadiness = {
    drained: false,
    report: {
      ready,
      checks: { elasticsearch: ready ? 'ok' : 'failing', alias: 'ok', redis: 'ok', serving: 'ok' },
    },
    async check() {
      return readiness.drained ? { ready: false, checks: { ...readiness.report.checks, serving: 'draining' } } : readiness.report;
    },
    drain() {
      readiness.drained = true;
    },
  };
  return readiness;
}

export interface InMemoryServices extends AppServices {
  repository: InMemoryRepository;
  access: InMemoryAccess;
  readiness: FixedReadiness;
}

export function inMemoryServices(docs: readonly Wallpaper[], keys: Record<string, { tier: string; limit: number }> = {}): InMemoryServices {
  return { repository: inMemoryRepository(docs), access: inMemoryAccess(keys), readiness: fixedReadiness() };
}
