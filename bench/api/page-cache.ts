import { createReadStream, existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@elastic/elasticsearch';

/** Every file under `dir`, depth first. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : entry.isFile() ? [join(dir, entry.name)] : [],
  );
}

async function readThrough(file: string): Promise<void> {
  for await (const _chunk of createReadStream(file, { highWaterMark: 1 << 20 }));
}

/**
 * Reads the files of the indices behind `alias` once, so that the kernel's page cache holds them,
 * as it does on a server that has been answering for a while with memory for its index. A catalogue
 * just seeded, or left from an earlier session, is otherwise read from disk by whichever requests
 * come first: on this machine 16 searches over 10M wallpapers took 534 ms in Elasticsearch the
 * first time and 221 ms the second, and warm, a sort=random page at 10M cost 0.6-1.0x its p50 at
 * 10k instead of 2.1-2.7x (bench/results/flat-with-size). Only a node whose data path is on this machine
 * can be warmed; returns the bytes read, or null when none was.
 */
export async function warmIndexFiles(es: Client, alias: string): Promise<number | null> {
  const indices = await es.indices.get({ index: alias, filter_path: ['*.settings.index.uuid'] });
  const uuids = Object.values(indices)
    .map((index) => index.settings?.index?.uuid)
    .filter((uuid): uuid is string => typeof uuid === 'string');
  const stats = await es.nodes.stats({ metric: 'fs', filter_path: ['nodes.*.fs.data.path'] });
  const paths = Object.values(stats.nodes ?? {}).flatMap((node) =>
    (node.fs?.data ?? []).map((data) => data.path).filter((path): path is string => !!path),
  );
  const dirs = paths.flatMap((path) => uuids.map((uuid) => join(path, 'indices', uuid))).filter((dir) => existsSync(dir));
  if (dirs.length === 0) return null;
  let bytes = 0;
  for (const file of dirs.flatMap(filesUnder)) {
    await readThrough(file);
    bytes += statSync(file).size;
  }
  return bytes;
}
