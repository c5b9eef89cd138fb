import { hash } from 'node:crypto';
import type { Client, estypes } from '@elastic/elasticsearch';
import { type History, type Tombstone, WATERMARK_ID, type Watermark, changesIndexOf } from '../../wallpapers/store/change-log.js';
import { type FoundRecord, decideHistory, ensureRecord, keepHistory, newHistoryId, recordUuid } from './record-history.js';
import { hasShuffleKeys, isErrorType, readIndexDefinition } from './index-admin.js';
import { type CataloguedWallpaper, toDocument } from '../../wallpapers/catalogued.js';
import { createTitleCarriers, toIndexDocument } from '../../wallpapers/store/index-document.js';
import { IdList, uniqueSorted } from './id-list.js';
import { type WrittenVersion, givenIn, readWatermarkVersion, standingIn, tombstonesAbove } from './record-reads.js';
import { ID_PAGE, StampScan, walkInIdOrder } from './stamp-scan.js';
import { type ChangeStamp, type LoadEntry, type WallpaperDocument, isDeletion, toRecord } from '../../wallpapers/wallpaper.js';

/** A batch once stamped: what to write, and what the change feed records beside it. */
export interface StampedBatch {
  /** Documents with their stamps (in a full load all of them, to its new index), and deletions of wallpapers that exist. */
  write: LoadEntry[];
  /** How many entries change nothing: records identical to what the catalogue holds, deletions of what it does not hold. */
  unchanged: number;
  /** Tombstones of `write`'s deletions, by id. */
  tombstones: Map<number, Tombstone>;
  /** Ids that come back: their tombstones go. */
  returning: Set<number>;
  /** The numbers this batch was given, until it is settled. */
  seqs: number[];
}

/** The digest a stamp carries: of the record as an export would write it. */
export function contentHash(doc: WallpaperDocument): string {
  return hash('sha256', JSON.stringify(toRecord(doc)), 'base64url').slice(0, 22);
}

/**
 * Two walks in id order, side by side: each id once, with what each walk holds of it (null on the
 * side that lacks it).
 */
async function* sideBySide<T extends { id: number }>(
  left: AsyncIterator<T>,
  right: AsyncIterator<T>,
): AsyncGenerator<{ was: T | null; now: T | null }, void, undefined> {
  let a = await left.next();
  let b = await right.next();
  while (!a.done || !b.done) {
    if (b.done || (!a.done && a.value.id < b.value.id)) {
      yield { was: a.value as T, now: null };
      a = await left.next();
    } else if (a.done || b.value.id < a.value.id) {
      yield { was: null, now: b.value };
      b = await right.next();
    } else {
      yield { was: a.value, now: b.value };
      a = await left.next();
      b = await right.next();
    }
  }
}

/** Another run wrote the watermark since this one last read or wrote it: the record is no longer this run's. */
export class RecordTakenError extends Error {
  constructor(record: string) {
    super(
      `another catalogue run wrote the change feed's watermark in ${record} since this run last did: this run's lock was lost (the process paused past its TTL?), so it stops writing`,
    );
    this.name = 'RecordTakenError';
  }
}

/**
 * The writing side of the change feed (see wallpapers/store/change-log.ts), for one load under
 * the catalogue lock: it numbers changes, tells them from rewrites of the same record, and moves
 * the watermark once what it numbered is written and visible.
 *
 * `against` is the catalogue the load changes: the live index an incremental import writes into,
 * or the one a full load replaces (null when there is none). Each batch is compared with it
 * (stamp-scan.ts): a record whose digest is unchanged keeps its stamp, so reloading the same
 * records records nothing.
 *
 * One run writes at a time, under the catalogue lock; `fence` (the lock's confirm) is asked before
 * every write of the record and of stamped documents, so a run whose lock expired while it was
 * paused (Ctrl-Z, a laptop asleep) writes nothing once it resumes. The watermark is written only
 * over the write of it this run last saw, and every run writes it as it opens: a run that lost the
 * lock between its fence and its write still cannot move it (it had moved it back from 39,218 to
 * 38,585, and numbers were given twice, helper-115).
 */
export class ChangeRecorder {
  readonly changesIndex: string;
  private next = 1;
  private committed = 0;
  private readonly inFlight = new Set<number>();
  private tombstoneCount = 0;
  /** Every id a full load wrote, for the deletions a full load implies (see recordMissing). */
  private readonly loaded = new IdList();
  private returningLater: number[] = [];
  private pendingTombstones: Tombstone[] = [];
  private readonly scan: StampScan | null;
  private history: History | undefined;
  /** The write of the watermark this run last read or made; null: there was none. */
  private watermarkVersion: WrittenVersion | null = null;
  /** Why this run began a new history of the record, when it did so for readers that had one. */
  began: string | null = null;
  /** Deletions a killed run recorded but never made, taken back when a new history began. */
  withdrawnAtOpen = 0;

  /** The highest number served: everything numbered up to it is written and visible. */
  get watermark(): number {
    return this.committed;
  }

  private constructor(
    private readonly es: Client,
    readonly alias: string,
    private readonly against: string | null,
    private readonly collectIds: boolean,
    private readonly fence: () => Promise<void>,
  ) {
    this.changesIndex = changesIndexOf(alias);
    this.scan = against === null ? null : new StampScan(es, against, collectIds);
  }

  /** Opens the record: its index made if missing, the last number given found (what any earlier load left, finished or not). */
  static async open(
    es: Client,
    alias: string,
    { against, full, fence = () => Promise.resolve() }: { against: string | null; full: boolean; fence?: () => Promise<void> },
  ): Promise<ChangeRecorder> {
    const recorder = new ChangeRecorder(es, alias, against, full, fence);
    const found = await ensureRecord(es, recorder.changesIndex);
    // What a run killed within a second of writing it left is not searchable yet: read before a
    // refresh, its tombstones would be neither withdrawn nor counted, and a watermark moved past
    // them would serve deletions that were never made (helper-101).
    await es.indices.refresh({ index: [recorder.changesIndex, ...(against ? [against] : [])] });
    const given = await givenIn(es, [recorder.changesIndex, ...(against ? [against] : [])]);
    const { mark, version } = await readWatermarkVersion(es, recorder.changesIndex);
    recorder.watermarkVersion = version;
    recorder.committed = mark?.change_seq ?? 0;
    recorder.next = Math.max(given.last, recorder.committed) + 1;
    recorder.tombstoneCount = given.tombstones;
    await recorder.continueHistory(found, mark);
    // Claimed: a run before this one, paused past its lock, can no longer write the watermark.
    if (recorder.watermarkVersion === version) await recorder.writeWatermark(recorder.committed);
    return recorder;
  }

  /** Goes on with the record's history, or begins a new one (record-history.ts). */
  private async continueHistory(found: FoundRecord, mark: Watermark | null): Promise<void> {
    const uuid = await recordUuid(this.es, this.changesIndex);
    const decided = decideHistory({
      record: this.changesIndex,
      alias: this.alias,
      found,
      watermark: mark,
      uuid,
      against: this.against,
      lastGiven: this.next - 1,
    });
    if (decided.go === 'on') {
      const { history } = decided;
      this.history = history;
      // Kept in the mapping, and given back to a watermark that a build before histories rewrote.
      if (found.kept === undefined) await keepHistory(this.es, this.changesIndex, history);
      if (mark?.history?.id !== history.id) await this.writeWatermark(this.committed);
      return;
    }
    if (!decided.legacy) {
      // Every reader walks again from the start, so the new history serves at once everything given
      // so far: a walk then is the whole catalogue, not nothing until the next load moves the
      // watermark (a sync had deleted every picture, helper-99). Less the deletions a killed run
      // recorded but never made, taken back first.
      if (this.against !== null) this.withdrawnAtOpen = await this.withdrawUnmade(this.against);
      this.committed = this.next - 1;
    }
    this.history = {
      id: newHistoryId(),
      index: uuid,
      since: this.committed,
      ...(decided.legacy ? { legacy: true as const } : {}),
      ...(this.against === null ? { bare: true as const } : {}),
    };
    await keepHistory(this.es, this.changesIndex, this.history);
    await this.writeWatermark(this.committed);
    this.began = decided.why;
  }

  /**
   * That the record is still the one this run opened. One deleted or replaced meanwhile is not
   * written to: Elasticsearch would make a deleted one anew, without its mapping, holding the old
   * history's watermark, and old cursors would be taken again (helper-99).
   */
  private async expectOwnRecord(): Promise<void> {
    const uuid = await recordUuid(this.es, this.changesIndex).catch((error: unknown) => {
      if (isErrorType(error, 'index_not_found_exception')) return null;
      throw error;
    });
    if (uuid !== this.history?.index) {
      throw new Error(
        `the record of changes ${this.changesIndex} was deleted or replaced while this run wrote to it: the next run begins a new history, and the feed's readers walk it again from the start`,
      );
    }
  }

  /** Throws unless this run may still write (its lock held). */
  async beforeWrite(): Promise<void> {
    await this.fence();
  }

  /** The watermark, into the record this run opened, over the write of it this run last saw. */
  private async writeWatermark(mark: number): Promise<void> {
    await this.fence();
    await this.expectOwnRecord();
    const watermark: Watermark = { kind: 'watermark', change_seq: mark, changed_at: new Date().toISOString(), history: this.history };
    const over = this.watermarkVersion;
    const written = await this.es
      .index({
        index: this.changesIndex,
        id: WATERMARK_ID,
        document: watermark,
        refresh: true,
        ...(over === null ? { op_type: 'create' as const } : { if_seq_no: over.seqNo, if_primary_term: over.primaryTerm }),
      })
      .catch((error: unknown) => {
        if (isErrorType(error, 'version_conflict_engine_exception')) throw new RecordTakenError(this.changesIndex);
        throw error;
      });
    // Elasticsearch answers every successful write with both; typed optional for other operations.
    if (written._seq_no === undefined || written._primary_term === undefined)
      throw new Error(`the watermark's write in ${this.changesIndex} was answered without its version`);
    this.watermarkVersion = { seqNo: written._seq_no, primaryTerm: written._primary_term };
  }

  /**
   * A live index made before the change feed has no fields for it: they are added to its mapping
   * in place (new fields need no reindex), from the mapping file.
   */
  static async prepareLive(es: Client, index: string): Promise<void> {
    const { mappings } = readIndexDefinition();
    const props = mappings.properties ?? {};
    await es.indices.putMapping({
      index,
      properties: { change_seq: props['change_seq']!, changed_at: props['changed_at']!, content_hash: props['content_hash']! },
    });
  }

  private async withTombstones(ids: number[]): Promise<Set<number>> {
    if (this.tombstoneCount === 0 || ids.length === 0) return new Set();
    if (ids.length > ID_PAGE) {
      const all = new Set<number>();
      for (let i = 0; i < ids.length; i += ID_PAGE) for (const id of await this.withTombstones(ids.slice(i, i + ID_PAGE))) all.add(id);
      return all;
    }
    const found = await this.es.search({
      index: this.changesIndex,
      size: ids.length,
      track_total_hits: false,
      _source: false,
      query: { bool: { filter: [{ ids: { values: ids.map(String) } }, { term: { kind: 'delete' } }] } },
    });
    return new Set(found.hits.hits.map((hit) => Number(hit._id)));
  }

  /**
   * Stamps a batch: a new or changed record gets the next number, an unchanged one keeps its
   * stamp; a deletion of a wallpaper that exists gets a number and a tombstone, one of a wallpaper
   * that does not records nothing. Its numbers are in flight until `settled`.
   */
  async stamp(batch: readonly LoadEntry[]): Promise<StampedBatch> {
    const ids = batch.map((entry) => entry.id);
    const [known, tombstoned] = await Promise.all([
      this.scan?.lookup(ids) ?? new Map<number, ChangeStamp>(),
      this.withTombstones(ids.filter((_, i) => !isDeletion(batch[i]!))),
    ]);
    const at = new Date().toISOString();
    const stamped: StampedBatch = { write: [], unchanged: 0, tombstones: new Map(), returning: new Set(), seqs: [] };
    const give = () => {
      const seq = this.next++;
      this.inFlight.add(seq);
      stamped.seqs.push(seq);
      return seq;
    };
    for (const entry of batch) {
      const old = known.get(entry.id);
      if (isDeletion(entry)) {
        if (old === undefined) {
          stamped.unchanged++;
          continue;
        }
        stamped.tombstones.set(entry.id, { kind: 'delete', id: entry.id, change_seq: give(), changed_at: at });
        stamped.write.push(entry);
        continue;
      }
      const digest = contentHash(entry);
      // A tombstone beside a wallpaper that exists is wrong whatever made it: give it a number
      // above the tombstone's, so a reader that applied the delete gets the wallpaper back.
      if (old !== undefined && old.hash === digest && !tombstoned.has(entry.id)) {
        entry.change = old;
        stamped.unchanged++;
        // A full load writes every record into its new index, the unchanged ones with their stamps.
        if (this.collectIds) stamped.write.push(entry);
      } else {
        entry.change = { seq: give(), at, hash: digest };
        stamped.write.push(entry);
      }
      // A full load's new index is not live yet: its returning ids lose their tombstones once it
      // is (clearReturning), or a load that fails would have taken a deletion back.
      if (tombstoned.has(entry.id)) {
        if (this.collectIds) this.returningLater.push(entry.id);
        else stamped.returning.add(entry.id);
      }
    }
    return stamped;
  }

  /**
   * The batch is written, or failed for good: its numbers no longer hold the watermark back.
   * `written` are the ids of the documents it wrote: what a full load holds, for recordMissing (a
   * record Elasticsearch refused is not in the new catalogue, so it is deleted too).
   */
  settled(batch: StampedBatch, written: Iterable<number> = [], { hold = false }: { hold?: boolean } = {}): void {
    // Held: a tombstone of the batch may stand for a deletion that did not happen, and could not be
    // withdrawn. Its number stays in flight, so the watermark never shows it; the next run
    // withdraws it first (finishKilledRuns).
    if (!hold) for (const seq of batch.seqs) this.inFlight.delete(seq);
    if (this.collectIds) for (const id of written) this.loaded.add(id);
  }

  /**
   * Tombstones withdrawn for those of `ids` whose wallpapers `index` still holds: deletions
   * recorded that did not happen (Elasticsearch refused the delete, its request failed, or the run
   * was killed between the tombstone and the delete). A reader applying one would drop a wallpaper
   * the catalogue serves (helper-97). Read in real time, so a delete just made counts as made.
   * Returns how many.
   */
  async withdrawStanding(ids: readonly number[], index: string): Promise<number> {
    let withdrawn = 0;
    for await (const standing of standingIn(this.es, index, ids)) {
      if (standing.length === 0) continue;
      await this.fence();
      const response = await this.es.bulk({
        index: this.changesIndex,
        operations: standing.map((id) => ({ delete: { _id: id } })),
        filter_path: ['errors', 'items.*.error', 'items.*.status'],
      });
      const refused = response.errors ? response.items.find((item) => item.delete?.error && item.delete.status !== 404) : undefined;
      if (refused) throw new Error(`tombstones not withdrawn: ${JSON.stringify(refused.delete?.error)}`);
      withdrawn += standing.length;
      this.tombstoneCount -= standing.length;
    }
    return withdrawn;
  }

  /**
   * What a run that stopped between its tombstones and their deletions left (see withdrawStanding):
   * the tombstones above the watermark, which no reader has seen, of wallpapers `live` holds. Done
   * by the next run under the lock, before it commits past them. Returns how many.
   */
  async withdrawUnmade(live: string): Promise<number> {
    if (this.tombstoneCount === 0) return 0;
    let withdrawn = 0;
    for await (const ids of tombstonesAbove(this.es, this.changesIndex, this.committed)) withdrawn += await this.withdrawStanding(ids, live);
    return withdrawn;
  }

  /** Once a full load is live: the tombstones of the ids it brought back go. */
  async clearReturning(): Promise<void> {
    for (let i = 0; i < this.returningLater.length; i += 2000) {
      const ids = this.returningLater.slice(i, i + 2000);
      await this.fence();
      await this.es.bulk({ index: this.changesIndex, operations: ids.map((id) => ({ delete: { _id: String(id) } })), filter_path: ['errors'] });
    }
    this.returningLater = [];
  }

  /**
   * What a full load leaves out of the catalogue it replaces, in id order, and how many wallpapers
   * that catalogue holds: read before the new index goes live, so an import can refuse to delete
   * more than its operator allowed (import-catalogue.ts).
   */
  async missing(): Promise<{ gone: number[]; replaced: number }> {
    if (this.against === null) return { gone: [], replaced: 0 };
    // Only a full load knows what it wrote: on any other, every wallpaper would look left out.
    if (!this.collectIds) throw new Error('missing is for a full load');
    const loaded = this.loaded.sortedUnique();
    const replaced = await this.idsOfReplaced(this.against);
    const gone: number[] = [];
    let j = 0;
    for (const id of replaced) {
      while (j < loaded.length && loaded[j]! < id) j++;
      if (j === loaded.length || loaded[j] !== id) gone.push(id);
    }
    return { gone, replaced: replaced.length };
  }

  /**
   * A full load's deletions, once its new index is live (not before: a load that then failed
   * would leave deletions of wallpapers that still exist): each id `missing` found gets a
   * tombstone, in id order. Returns how many.
   */
  async recordMissing(gone?: readonly number[]): Promise<number> {
    const ids = gone ?? (await this.missing()).gone;
    const at = new Date().toISOString();
    for (let i = 0; i < ids.length; i += ID_PAGE) {
      await this.writeTombstones(ids.slice(i, i + ID_PAGE).map((id): Tombstone => ({ kind: 'delete', id, change_seq: this.next++, changed_at: at })));
    }
    return ids.length;
  }

  /**
   * Every id the replaced catalogue holds, sorted: those the load's stamp lookups read with its
   * pages, and those in the ranges they did not cover, read now. A load in id order has read all
   * but the ids below its first; a second walk of the whole index had cost a full import over
   * 200,000 wallpapers 20 more searches after its load (bench/results/change-feed.md).
   */
  private async idsOfReplaced(index: string): Promise<Float64Array> {
    const { ids, spans } = this.scan!.readSoFar();
    const rest: number[] = [];
    let readUpTo = Number.MIN_SAFE_INTEGER;
    for (const [after, upTo] of [...spans, [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY] as const]) {
      if (after > readUpTo) {
        for await (const page of walkInIdOrder(this.es, index, false, { after: readUpTo, upTo: after })) for (const { id } of page) rest.push(id);
      }
      readUpTo = Math.max(readUpTo, upTo);
    }
    if (rest.length === 0) return ids;
    const all = new Float64Array(ids.length + rest.length);
    all.set(ids);
    all.set(rest, ids.length);
    return uniqueSorted(all);
  }

  /** Writes tombstones in one request; the ids Elasticsearch refused, with why. */
  async tryTombstones(tombstones: readonly Tombstone[]): Promise<Map<number, estypes.ErrorCause>> {
    await this.fence();
    // Into a record deleted meanwhile, the write would make one anew without a watermark (helper-100).
    await this.expectOwnRecord();
    const response = await this.es.bulk({
      index: this.changesIndex,
      operations: tombstones.flatMap((tombstone) => [{ index: { _id: String(tombstone.id) } }, tombstone]),
      filter_path: ['errors', 'items.*.error'],
    });
    const refused = new Map<number, estypes.ErrorCause>();
    if (response.errors) {
      response.items.forEach((item, i) => {
        if (item.index?.error) refused.set(tombstones[i]!.id, item.index.error);
      });
    }
    this.tombstoneCount += tombstones.length - refused.size;
    return refused;
  }

  private async writeTombstones(tombstones: readonly Tombstone[]): Promise<void> {
    const refused = await this.tryTombstones(tombstones);
    if (refused.size > 0) throw new Error(`tombstones not written: ${JSON.stringify([...refused][0])}`);
  }

  /**
   * A rollback's changes: moving the alias from `from` back to `to` changes every wallpaper whose
   * record or number differs between them. Those `to` holds get new numbers in place (it becomes
   * live with them); those only `from` holds get tombstones, written by finishRollback once the
   * alias has moved (a rollback stopped before would otherwise leave deletions of live wallpapers).
   * Both are read in id order, side by side.
   */
  async recordRollback(from: string, to: string, signal?: AbortSignal): Promise<{ upserts: number; deletes: number }> {
    const at = new Date().toISOString();
    const updates: { id: number; seq: number }[] = [];
    const tombstones: Tombstone[] = [];
    let upserts = 0;
    let deletes = 0;
    const rewrite = { shuffle: await hasShuffleKeys(this.es, to), carriesTitle: createTitleCarriers() };
    const flush = async (force: boolean) => {
      if (updates.length > 0 && (force || updates.length >= 2000)) await this.restamp(to, updates.splice(0), at, rewrite);
    };
    for await (const { was, now } of sideBySide(this.stampsInIdOrder(from), this.stampsInIdOrder(to))) {
      // A stop here leaves `to` partly numbered again, which no reader sees before the switch and
      // the next rollback numbers once more: the same as a stop just before the switch.
      signal?.throwIfAborted();
      if (now === null) {
        tombstones.push({ kind: 'delete', id: was!.id, change_seq: this.next++, changed_at: at });
        deletes++;
      } else if (was === null) {
        updates.push({ id: now.id, seq: this.next++ });
        upserts++;
        // Deleted since `to` was made: its tombstone goes once `to` is live.
        this.returningLater.push(now.id);
      } else if (was.hash === '' || was.hash !== now.hash || was.seq !== now.seq) {
        // The same record under another number (deleted and loaded again, or changed and changed
        // back) changes too: a reader already past the older number would never see it again.
        updates.push({ id: now.id, seq: this.next++ });
        upserts++;
      }
      await flush(false);
    }
    await flush(true);
    await this.es.indices.refresh({ index: to });
    this.pendingTombstones = tombstones;
    return { upserts, deletes };
  }

  /**
   * New numbers for wallpapers of `index`, each written whole again, as a load writes it: a partial
   * update is rebuilt from _source, which leaves out what queries read beside the record (tags,
   * colours, completion inputs, sort=random's keys), so rolled-back wallpapers lost them. As in an
   * incremental import, the most popular of each title among them carries its completions
   * (createTitleCarriers), beside any wallpaper that carried them already: suggestions skip duplicates.
   */
  private async restamp(
    index: string,
    batch: readonly { id: number; seq: number }[],
    at: string,
    { shuffle, carriesTitle }: { shuffle: boolean; carriesTitle: (title: string, downloads: number) => boolean },
  ): Promise<void> {
    const kept = await this.es.mget<CataloguedWallpaper>({ index, ids: batch.map(({ id }) => String(id)), _source: true });
    const operations = batch.flatMap(({ id, seq }, i) => {
      const found = kept.docs[i];
      if (!found || !('found' in found) || !found.found || !found._source) throw new Error(`stamps not written: wallpaper ${id} is not in ${index}`);
      const record = toDocument(found._source);
      const stamped = { ...record, change: { seq, at, hash: contentHash(record) } };
      return [{ index: { _id: String(id) } }, toIndexDocument(stamped, { suggest: carriesTitle(record.title, record.downloads), shuffle })];
    });
    await this.fence();
    const response = await this.es.bulk({ index, operations, filter_path: ['errors', 'items.*.error'] });
    if (response.errors) throw new Error(`stamps not written: ${JSON.stringify(response.items.find((item) => item.index?.error))}`);
  }

  /**
   * What a run killed after its alias switch had still to record (see finishKilledRuns): each
   * wallpaper `left` holds and `live` does not gets a tombstone, unless it has one; each that
   * `live` holds loses its tombstone, if any (the load that made it live gave it a number above).
   * Both read in id order, side by side. Returns the tombstones written.
   */
  async recordLeft(left: string, live: string): Promise<number> {
    const at = new Date().toISOString();
    const gone: number[] = [];
    const kept: number[] = [];
    let written = 0;
    const flush = async (force: boolean) => {
      if (gone.length > 0 && (force || gone.length >= ID_PAGE)) {
        const batch = gone.splice(0);
        const already = await this.withTombstones(batch);
        const fresh = batch
          .filter((id) => !already.has(id))
          .map((id): Tombstone => ({ kind: 'delete', id, change_seq: this.next++, changed_at: at }));
        if (fresh.length > 0) await this.writeTombstones(fresh);
        written += fresh.length;
      }
      if (kept.length > 0 && (force || kept.length >= ID_PAGE)) {
        const batch = kept.splice(0);
        const tombstoned = [...(await this.withTombstones(batch))];
        if (tombstoned.length > 0) {
          await this.fence();
          await this.es.bulk({
            index: this.changesIndex,
            operations: tombstoned.map((id) => ({ delete: { _id: String(id) } })),
            filter_path: ['errors'],
          });
        }
      }
    };
    for await (const { was, now } of sideBySide(this.idsInOrder(left), this.idsInOrder(live))) {
      if (now === null) gone.push(was!.id);
      else if (was === null) kept.push(now.id);
      await flush(false);
    }
    await flush(true);
    return written;
  }

  private async *idsInOrder(index: string): AsyncGenerator<{ id: number }, void, undefined> {
    for await (const page of walkInIdOrder(this.es, index, false)) yield* page;
  }

  /** Once the alias is back on the rolled-back-to index: the tombstones recordRollback found, and returning ids' tombstones gone. */
  async finishRollback(): Promise<void> {
    for (let i = 0; i < this.pendingTombstones.length; i += 2000) await this.writeTombstones(this.pendingTombstones.slice(i, i + 2000));
    this.pendingTombstones = [];
    await this.clearReturning();
  }

  private async *stampsInIdOrder(index: string): AsyncGenerator<{ id: number; hash: string; seq: number }, void, undefined> {
    for await (const page of walkInIdOrder(this.es, index, true)) for (const { id, stamp } of page) yield { id, hash: stamp!.hash, seq: stamp!.seq };
  }

  /**
   * Moves the watermark to the highest number below every batch still in flight, once what it
   * covers is visible: `indices` (where the load wrote) and the tombstones are refreshed first.
   * Returns the watermark.
   */
  async commit(indices: readonly string[]): Promise<number> {
    const lowest = this.inFlight.size > 0 ? Math.min(...this.inFlight) : this.next;
    const mark = lowest - 1;
    if (mark <= this.committed) {
      // Nothing to move, but a run whose record went meanwhile is told now, not at its last commit.
      await this.expectOwnRecord();
      return this.committed;
    }
    await this.es.indices.refresh({ index: [...indices, this.changesIndex] });
    await this.writeWatermark(mark);
    this.committed = mark;
    return mark;
  }
}
