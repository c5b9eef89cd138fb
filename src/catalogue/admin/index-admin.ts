import { readFileSync } from 'node:fs';
import { errors, type Client, type estypes } from '@elastic/elasticsearch';
import { versionedIndexName, versionedNamePattern } from '../../wallpapers/store/index-names.js';
import { SHUFFLE_FIELDS } from '../../wallpapers/store/shuffle.js';
import { windowServing } from '../../wallpapers/store/result-window.js';

export interface IndexDefinition {
  settings: estypes.IndicesIndexSettings;
  mappings: estypes.MappingTypeMapping;
}

/**
 * Lifecycle marker kept in the mapping's `_meta.state`. An index is `building` from creation
 * until the alias points at it (see swapAlias), so one left `building` and not live was
 * abandoned by a killed run or a failed swap. A live index always counts as complete. Indices
 * without the marker predate it and count as complete. An index the alias leaves while the change
 * feed still has to record what it held and the new one does not (a full load's or a rollback's
 * deletions) is `leaving` or `rolling-back` until that is written, then `complete` or
 * `rolled-back`: one still so after its run was killed is finished by the next run
 * (finishKilledRuns), and is never pruned before.
 */
export type IndexState = 'building' | 'complete' | 'rolled-back' | 'leaving' | 'rolling-back';

/** What an index the alias left becomes once its deletions are recorded. */
export const AFTER_LEAVING = { leaving: 'complete', 'rolling-back': 'rolled-back' } as const satisfies Partial<Record<IndexState, IndexState>>;

export interface VersionedIndex {
  name: string;
  createdAt: Date;
  /** Null while the index is closed. */
  docs: number | null;
  /** True when the alias points at this index. */
  live: boolean;
  state: IndexState;
}

const DEFINITION_URL = new URL('../../../index-mappings/wallpapers.json', import.meta.url);
const MAX_NAME_ATTEMPTS = 50;
const DEFAULT_REFRESH_INTERVAL = '1s';

/** A fresh copy of index-mappings/wallpapers.json on every call, so callers may mutate it. */
export function readIndexDefinition(): IndexDefinition {
  const parsed = JSON.parse(readFileSync(DEFINITION_URL, 'utf8')) as Partial<IndexDefinition>;
  if (typeof parsed.settings !== 'object' || typeof parsed.mappings !== 'object') {
    throw new Error(`${DEFINITION_URL.pathname} must have "settings" and "mappings" objects`);
  }
  return parsed as IndexDefinition;
}

export function isErrorType(error: unknown, type: string): boolean {
  return error instanceof errors.ResponseError && (error.body as { error?: { type?: string } })?.error?.type === type;
}

/**
 * Creates `${alias}-yyyyMMddHHmmssSSS` (plus `-N` when taken) with refresh disabled for bulk
 * loading, marked `building`. `resultWindow` is the API's MAX_RESULT_WINDOW: the index serves at
 * least that and the largest page, or a setting raised on the live index by hand would be lost at
 * the next import, seed or reindex, and its deepest pages would answer 400 again.
 */
export async function createVersionedIndex(
  es: Client,
  alias: string,
  { now = new Date(), resultWindow }: { now?: Date; resultWindow?: number | undefined } = {},
): Promise<string> {
  const { settings, mappings } = readIndexDefinition();
  if (resultWindow !== undefined) {
    settings['max_result_window'] = Math.max(Number(settings['max_result_window'] ?? 10_000), windowServing(resultWindow));
  }
  const base = versionedIndexName(alias, now);
  const building = { ...mappings, _meta: { ...mappings._meta, state: 'building' satisfies IndexState } };
  for (let attempt = 1; attempt <= MAX_NAME_ATTEMPTS; attempt++) {
    const index = attempt === 1 ? base : `${base}-${attempt}`;
    try {
      await es.indices.create({ index, settings: { ...settings, refresh_interval: '-1' }, mappings: building });
      return index;
    } catch (error) {
      if (!isErrorType(error, 'resource_already_exists_exception')) throw error;
    }
  }
  throw new Error(`could not find a free index name after ${MAX_NAME_ATTEMPTS} attempts starting at ${base}`);
}

/** Makes a loaded index searchable: refresh interval back to the mapping file's value, then a refresh. */
export async function finishLoading(es: Client, index: string): Promise<void> {
  const { settings } = readIndexDefinition();
  await es.indices.putSettings({ index, settings: { refresh_interval: settings.refresh_interval ?? DEFAULT_REFRESH_INTERVAL } });
  await es.indices.refresh({ index });
}

/** What merging a loaded index to one segment did: how long it took, or why it did not happen. */
export type Compaction = { seconds: number } | { error: string };

/**
 * Merges a catalogue index to one segment. A catalogue index is written once and read many
 * times, and the merge also drops what Elasticsearch keeps of each document for recovery while
 * its _source leaves fields out (every document leaves out its tags and colour terms), as far as
 * retention leases let it: at 1M wallpapers, 599 MB unmerged, 415 MB merged straight after the
 * load, 333 MB merged minutes later (bench/results/descriptions). Loaders call it once the index
 * is live, so a catalogue is searchable as soon as it is loaded rather than a merge later (the
 * merge is a quarter of a load), and say so before it starts (onLive). A merge that fails or is
 * interrupted leaves a complete index in more segments, which Elasticsearch keeps merging on its
 * own: reported, never an error.
 */
export async function compactIndex(es: Client, index: string, signal?: AbortSignal): Promise<Compaction> {
  const started = performance.now();
  try {
    signal?.throwIfAborted();
    // An interrupt stops the wait, not the merge: Elasticsearch finishes it on its own.
    await es.indices.forcemerge({ index, max_num_segments: 1 }, { requestTimeout: 30 * 60_000, signal });
    return { seconds: (performance.now() - started) / 1000 };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * A loader's last step: says the new index is live (onLive), then merges it to one segment unless
 * told not to, and gives the result with how that went.
 */
export async function mergeOnceLive<R extends { index: string; compaction: Compaction | null }>(
  es: Client,
  live: R,
  { onLive, signal, merge = true }: { onLive?: (live: R) => void; signal?: AbortSignal; merge?: boolean },
): Promise<R> {
  onLive?.(live);
  return merge ? { ...live, compaction: await compactIndex(es, live.index, signal) } : live;
}

/** Whether an index was made with sort=random's keys (shuffle.ts): an index made before them has no field for them. */
export async function hasShuffleKeys(es: Client, index: string): Promise<boolean> {
  const mappings = await es.indices.getMapping({ index, filter_path: [`*.mappings.properties.${SHUFFLE_FIELDS[0]}`] });
  return Object.values(mappings).some((mapping) => mapping.mappings?.properties?.[SHUFFLE_FIELDS[0]!] !== undefined);
}

export async function markIndexState(es: Client, index: string, state: IndexState): Promise<void> {
  await es.indices.putMapping({ index, _meta: { state } });
}

/**
 * That `index` is one a catalogue run made (its mapping is the catalogue's): a run that lost its lock
 * had deleted another's index under way, whose next writes made it again, without the mapping,
 * and that run published it; every search then answered 500 (helper-116).
 */
async function expectMadeByARun(es: Client, index: string): Promise<void> {
  const { mappings } = (await es.indices.getMapping({ index }))[index] ?? {};
  // Every catalogue index is strict (index-mappings/wallpapers.json), one a write made is not.
  if (mappings?.dynamic !== 'strict' && mappings?._meta?.['state'] === undefined) {
    throw new Error(
      `${index} is not an index a catalogue run made (its mapping is not the catalogue's): it was deleted and made again by a write, so it is not made live`,
    );
  }
}

/** Deletes an index that must not stay around; false when even that failed. */
export async function discardIndex(es: Client, index: string): Promise<boolean> {
  try {
    await es.indices.delete({ index }, { ignore: [404] });
    return true;
  } catch {
    return false;
  }
}

/** The concrete indices the alias points at; empty when the alias does not exist. */
export async function aliasedIndices(es: Client, alias: string): Promise<string[]> {
  const response = await es.indices.getAlias({ name: alias }, { ignore: [404], meta: true });
  if (response.statusCode === 404) return [];
  return Object.keys(response.body);
}

/** The alias is missing or points at more than one index. */
export class AliasStateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AliasStateError';
  }
}

/** The one index the alias points at; throws AliasStateError naming the problem otherwise. */
export async function liveIndex(es: Client, alias: string): Promise<string> {
  const live = await liveIndexOrNone(es, alias);
  if (live === null) throw new AliasStateError(`alias ${alias} does not exist`);
  return live;
}

/**
 * The live index, or null when the alias does not exist yet (a first load); any other state throws,
 * a name already taken by an index too: Elasticsearch refuses an alias of that name, so a run would
 * load the whole input and only then fail at its switch.
 */
export async function liveIndexOrNone(es: Client, alias: string): Promise<string | null> {
  const targets = await aliasedIndices(es, alias);
  if (targets.length === 1) return targets[0] as string;
  if (targets.length > 1) throw new AliasStateError(`alias ${alias} points at ${targets.length} indices (${targets.join(', ')})`);
  if (await es.indices.exists({ index: alias })) {
    throw new AliasStateError(
      `INDEX_ALIAS ${alias} names an index, not an alias, and a catalogue run points an alias of that name at the index it makes: ` +
        `set INDEX_ALIAS to another name, or delete the index ${alias} if nothing reads it`,
    );
  }
  return null;
}

interface AliasActionResult {
  action: { type: string };
  status: number;
  error?: { type?: string; reason?: string };
}

/**
 * Points the alias at `newIndex` only, in one atomic _aliases call, so readers never see zero or
 * two indices, then marks it complete. Returns the indices the alias pointed at before.
 *
 * Marked only once live: a swap that fails leaves the new index `building`, an orphan that is
 * never a rollback target nor kept in place of one. The indices being left are marked complete
 * first (they served traffic), which repairs one left `building` by a run killed between its
 * swap and its mark. When the call fails ambiguously (a timeout), the alias is read back: the
 * swap counts as done exactly when the alias points at the new index.
 */
export async function swapAlias(
  es: Client,
  alias: string,
  newIndex: string,
  { leaving = 'complete', confirm }: { leaving?: 'complete' | keyof typeof AFTER_LEAVING; confirm?: () => Promise<void> } = {},
): Promise<string[]> {
  await expectMadeByARun(es, newIndex);
  const previous = await aliasedIndices(es, alias);
  for (const index of previous) if (index !== newIndex) await markIndexState(es, index, leaving);
  const actions: estypes.IndicesUpdateAliasesAction[] = [];
  // A wildcard remove also catches an index that gained the alias after the read above.
  if (previous.length > 0) actions.push({ remove: { index: '*', alias, must_exist: false } });
  actions.push({ add: { index: newIndex, alias } });
  // As late as it can be asked: a run paused past its lock between an earlier check and this call
  // had moved the alias over another run's changes (helper-116, a rollback).
  await confirm?.();
  try {
    const response = (await es.indices.updateAliases({ actions })) as { action_results?: AliasActionResult[] };
    const failed = (response.action_results ?? []).filter(
      (result) => result.status >= 300 && !(result.action.type === 'remove' && result.status === 404),
    );
    if (failed.length > 0) {
      const reasons = failed.map((r) => `${r.action.type}: ${r.error?.reason ?? r.status}`).join('; ');
      throw new Error(`alias ${alias} -> ${newIndex} not applied cleanly: ${reasons}`);
    }
  } catch (error) {
    const now = await aliasedIndices(es, alias).catch(() => []);
    if (!(now.length === 1 && now[0] === newIndex)) throw error;
  }
  await markIndexState(es, newIndex, 'complete');
  return previous.filter((name) => name !== newIndex);
}

export interface PublishOptions {
  /** Versioned indices to keep afterwards, the new live one included. */
  keep: number;
  /** Throws unless the run still holds the catalogue lock; asked before the swap and again before pruning. */
  confirmLock?: () => Promise<void>;
  /**
   * Runs once the new index is live and before any older one is pruned: what still reads the
   * replaced index (a full load's deletions for the change feed) reads it here. With `keep` 1 the
   * replaced index is among those pruned. Should it fail, nothing is pruned.
   */
  beforePrune?: () => Promise<void>;
}

/**
 * A run stopped while moving its alias (a lost lock, Elasticsearch failing): what a reader now
 * sees depends on whether the alias had moved, so the message says which, and what is left for the
 * next run. `unknown` when the alias could not be read back either: the message then says so
 * rather than guess. A stop after the switch still fails the run (exit 1): it holds no lock then,
 * or its change feed is not complete, and either wants the operator's eye.
 */
export class PublishError extends Error {
  constructor(
    readonly switched: boolean | 'unknown',
    message: string,
    options: { cause: unknown },
  ) {
    super(message, options);
    this.name = 'PublishError';
  }
}

export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Whether the alias points at `index` after a failed move, read back; `unknown` when Elasticsearch
 * does not answer that either (a proxy that dropped the answer may have let the move through).
 */
export async function aliasMovedTo(es: Client, alias: string, index: string): Promise<boolean | 'unknown'> {
  const live = await aliasedIndices(es, alias).catch(() => null);
  return live === null ? 'unknown' : live.includes(index);
}

/** The operator's sentence for an alias whose move could not be confirmed. */
export const unknownMove = (alias: string, index: string): string =>
  `whether alias ${alias} moved to ${index} is unknown (Elasticsearch did not answer its read-back)`;

/**
 * The swap, or a PublishError saying whether it was done: a failed swap discards the new index
 * when it is certainly not live (and otherwise leaves it `building`: the next run removes it
 * unless it is live), so it can never take the place of the true rollback target.
 */
async function swapOrSay(es: Client, alias: string, index: string, options: Parameters<typeof swapAlias>[3]): Promise<string[]> {
  try {
    return await swapAlias(es, alias, index, options);
  } catch (error) {
    const moved = await aliasMovedTo(es, alias, index);
    if (moved === true) throw new PublishError(true, `${messageOf(error)}; alias ${alias} -> ${index} is live`, { cause: error });
    if (moved === 'unknown') {
      const next = `the next catalogue run removes it if the alias did not move, and finishes the switch, the change feed's record of it included, if it did`;
      throw new PublishError('unknown', `${messageOf(error)}; ${unknownMove(alias, index)}; ${index} left marked building: ${next}`, {
        cause: error,
      });
    }
    const left = (await discardIndex(es, index)) ? `${index} deleted` : `${index} left marked building, for the next catalogue run to remove`;
    throw new PublishError(false, `${messageOf(error)}; alias ${alias} left unchanged, ${left}`, { cause: error });
  }
}

/** Makes a loaded, checked index live and prunes beyond `keep`. */
export async function publishIndex(
  es: Client,
  alias: string,
  index: string,
  { keep, confirmLock, beforePrune }: PublishOptions,
): Promise<{ previous: string[]; pruned: string[] }> {
  const previous = await swapOrSay(es, alias, index, { leaving: beforePrune ? 'leaving' : 'complete', confirm: confirmLock });
  let recorded = beforePrune === undefined;
  try {
    if (beforePrune) {
      await beforePrune();
      for (const left of previous) await markIndexState(es, left, AFTER_LEAVING.leaving);
      recorded = true;
    }
    await confirmLock?.();
  } catch (error) {
    // The replaced index stays marked `leaving` until what it held is recorded (finishKilledRuns).
    const left = recorded
      ? 'nothing was pruned (the next run prunes beyond --keep)'
      : "the change feed's record of what it replaced is written by the next catalogue run, and nothing was pruned";
    throw new PublishError(true, `${messageOf(error)}; alias ${alias} -> ${index} is live, ${left}`, { cause: error });
  }
  const pruned = await pruneOldIndices(es, alias, keep);
  return { previous, pruned };
}

function stateOf(marker: unknown): IndexState {
  return marker === 'building' || marker === 'rolled-back' || marker === 'leaving' || marker === 'rolling-back' ? marker : 'complete';
}

/**
 * The wallpapers each index holds, in one call; none for an index that cannot answer (closed).
 * Counted by a search, not read from index statistics: those count Lucene documents, several per
 * wallpaper as soon as a mapping holds nested fields.
 */
async function countWallpapers(es: Client, names: readonly string[]): Promise<Map<string, number>> {
  if (names.length === 0) return new Map();
  const response = await es.msearch({
    searches: names.flatMap((index) => [{ index }, { size: 0, track_total_hits: true }]),
    filter_path: ['responses.hits.total.value', 'responses.status'],
  });
  const counts = new Map<string, number>();
  response.responses.forEach((item, i) => {
    const total = 'hits' in item ? item.hits.total : undefined;
    if (typeof total === 'object' && names[i] !== undefined) counts.set(names[i], total.value);
  });
  return counts;
}

/** Versioned indices of this alias, newest first, each marked live when the alias points at it. */
export async function listVersionedIndices(es: Client, alias: string): Promise<VersionedIndex[]> {
  const pattern = versionedNamePattern(alias);
  const indices = await es.indices.get({ index: `${alias}-*`, expand_wildcards: ['open', 'closed'], features: ['aliases', 'settings', 'mappings'] });
  const names = Object.keys(indices).filter((name) => pattern.test(name));
  const docsByIndex = await countWallpapers(es, names);
  return Object.entries(indices)
    .filter(([name]) => pattern.test(name))
    .map(([name, state]) => {
      const docs = docsByIndex.get(name);
      return {
        name,
        createdAt: new Date(Number(state.settings?.index?.creation_date ?? 0)),
        docs: docs ?? null,
        live: Object.hasOwn(state.aliases ?? {}, alias),
        // A live index served traffic: complete, even if a run died between its swap and its mark.
        state: Object.hasOwn(state.aliases ?? {}, alias) ? 'complete' : stateOf(state.mappings?._meta?.['state']),
      };
    })
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.name < b.name ? 1 : a.name > b.name ? -1 : 0));
}

const KEEP_PRIORITY: Record<IndexState, number> = { leaving: 0, 'rolling-back': 0, complete: 0, 'rolled-back': 1, building: 2 };

/**
 * The indices beyond the `keep` most worth keeping, never a live one. Complete indices come
 * first, newest first, so a rolled-back or abandoned index never takes the place of one that
 * a rollback could return to.
 */
export function selectPrunable(indices: readonly VersionedIndex[], keep: number): VersionedIndex[] {
  if (!Number.isInteger(keep) || keep < 0) throw new RangeError(`keep must be a non-negative integer, got ${keep}`);
  return [...indices]
    .sort((a, b) => KEEP_PRIORITY[a.state] - KEEP_PRIORITY[b.state] || b.createdAt.getTime() - a.createdAt.getTime())
    .slice(keep)
    .filter((index) => !index.live && !(index.state in AFTER_LEAVING));
}

/** Deletes the versioned indices selectPrunable picks. Returns the deleted names. */
export async function pruneOldIndices(es: Client, alias: string, keep: number): Promise<string[]> {
  const doomed = selectPrunable(await listVersionedIndices(es, alias), keep);
  for (const { name } of doomed) await es.indices.delete({ index: name });
  return doomed.map(({ name }) => name);
}

/** Indices left `building` by a run that died, never a live one. */
export function selectOrphans(indices: readonly VersionedIndex[]): VersionedIndex[] {
  return indices.filter((index) => index.state === 'building' && !index.live);
}
