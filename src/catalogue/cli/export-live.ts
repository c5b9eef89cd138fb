import type { Config } from '../../config.js';
import { toRecord } from '../../wallpapers/wallpaper.js';
import { liveIndex } from '../admin/index-admin.js';
import { openSnapshot } from '../ingest/index-snapshot.js';
import { reachable, toolsClient } from './catalogue-cli.js';
import { interruptionOf, stopping, trapInterrupts } from './interrupt.js';
import { ReaderGone, type RecordSink, openRecordSink } from './record-writer.js';

// Documents a page of the walk: about 1 MB of records.
const PAGE = 1000;
// The shell's code for a process whose reader went away (128 + SIGPIPE), as `yes | head -1` ends.
export const EXIT_READER_GONE = 141;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
const notWritten = (out: string | undefined) => (out === undefined ? 'the output is incomplete' : `${out} not written`);

/**
 * The exit code of an export stopped short by its user (Ctrl-C: 130/143) or by its reader (`| head`:
 * 141), having said so; null for any other failure.
 */
export function stoppedShort(error: unknown, out: string | undefined, say: (line: string) => void): number | null {
  const interrupted = interruptionOf(error);
  if (interrupted) {
    say(`${interrupted.message}; ${notWritten(out)}`);
    return interrupted.exitCode;
  }
  if (error instanceof ReaderGone) {
    say(`${error.message}; the export stopped there`);
    return EXIT_READER_GONE;
  }
  return null;
}

/**
 * Writes the catalogue behind the alias as NDJSON in id order: the records as an import reads them
 * (the nine fields, tags and palette), from one point in time, so what an import or a reindex does
 * meanwhile is not half in it. Takes no lock and writes nothing to the catalogue. The output is
 * opened first, so a path that cannot be written fails before anything is read. Exits 1 when
 * Elasticsearch or the alias fails, or fewer records were read than the point in time held (the
 * file is then not put in place); 141 when standard output's reader leaves (`| head`).
 */
export async function exportLiveCatalogue(config: Config, out: string | undefined, say: (line: string) => void): Promise<number> {
  let sink: RecordSink;
  try {
    sink = await openRecordSink(out);
  } catch (error) {
    say(`cannot write ${out}: ${messageOf(error)}`);
    return 1;
  }
  const es = toolsClient(config);
  const interrupts = trapInterrupts((reason) => say(stopping(reason)));
  let index: string | null = null;
  try {
    if (!(await reachable(es, config, say))) {
      await sink.abort();
      return 1;
    }
    index = await liveIndex(es, config.indexAlias);
    const snapshot = await openSnapshot(es, index, { inIdOrder: true });
    try {
      const { signal } = interrupts;
      const records = (async function* () {
        for await (const doc of snapshot.documents(PAGE, signal)) yield toRecord(doc);
        signal.throwIfAborted();
      })();
      const written = await sink.write(records);
      if (written !== snapshot.total) throw new Error(`${written} records read of the ${snapshot.total} ${index} held`);
      await sink.commit();
      say(`${written} wallpapers of ${index} (live behind ${config.indexAlias}) written to ${out ?? 'standard output'}`);
      return 0;
    } finally {
      await snapshot.close();
    }
  } catch (error) {
    await sink.abort();
    const code = stoppedShort(error, out, say);
    if (code !== null) return code;
    // An index pruned under the export (an import or reindex with --keep) answers with no shards.
    const gone = index !== null && (await es.indices.exists({ index }).catch(() => true)) === false;
    say(`${gone ? `${index} was deleted while it was exported (pruned by an import or a reindex)` : messageOf(error)}; ${notWritten(out)}`);
    return 1;
  } finally {
    interrupts.dispose();
    await es.close();
  }
}
