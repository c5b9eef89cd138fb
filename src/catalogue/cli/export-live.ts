import type { Config } from '../../config.js';
import { cannotReach } from '../../config.js';
import { TOOLS_MAX_ANSWER_BYTES, createEsClient } from '../../infra/elasticsearch.js';
import { toRecord } from '../../wallpapers/wallpaper.js';
import { liveIndex } from '../admin/index-admin.js';
import { openSnapshot } from '../ingest/index-snapshot.js';
import { interruptionOf, stopping, trapInterrupts } from './interrupt.js';
import { writeRecords } from './record-writer.js';

// Documents a page of the walk: about 1 MB of records.
const PAGE = 1000;

/**
 * Writes the catalogue behind the alias as NDJSON in id order: the records as an import reads them
 * (the nine fields, tags and palette), from one point in time, so what an import or a reindex does
 * meanwhile is not half in it. Takes no lock and writes nothing to the catalogue. Exits 1 when
 * Elasticsearch or the alias fails, or when fewer records were read than the point in time held.
 */
export async function exportLiveCatalogue(config: Config, out: string | undefined, say: (line: string) => void): Promise<number> {
  const es = createEsClient({ url: config.elasticsearchUrl, requestTimeoutMs: 120_000, maxAnswerBytes: TOOLS_MAX_ANSWER_BYTES });
  const interrupts = trapInterrupts((reason) => say(stopping(reason)));
  try {
    try {
      await es.cluster.health({}, { requestTimeout: 5000 });
    } catch (error) {
      say(cannotReach('Elasticsearch', config.elasticsearchUrl, error instanceof Error ? error.message : String(error)));
      return 1;
    }
    const index = await liveIndex(es, config.indexAlias);
    const snapshot = await openSnapshot(es, index, { inIdOrder: true });
    try {
      const { signal } = interrupts;
      const records = (async function* () {
        for await (const doc of snapshot.documents(PAGE, signal)) yield toRecord(doc);
        signal.throwIfAborted();
      })();
      const written = await writeRecords(records, out);
      if (written !== snapshot.total) throw new Error(`${written} records read of the ${snapshot.total} ${index} held`);
      say(`${written} wallpapers of ${index} (live behind ${config.indexAlias}) written to ${out ?? 'standard output'}`);
      return 0;
    } finally {
      await snapshot.close();
    }
  } catch (error) {
    const interrupted = interruptionOf(error);
    if (interrupted) {
      say(`${interrupted.message}; ${out === undefined ? 'the output is incomplete' : `${out} not written`}`);
      return interrupted.exitCode;
    }
    say(`${error instanceof Error ? error.message : String(error)}${out === undefined ? '' : `; ${out} not written`}`);
    return 1;
  } finally {
    interrupts.dispose();
    await es.close();
  }
}
