import type { Readable } from 'node:stream';
import { EXIT_FAILED, failureCode, type CommandContext } from './catalogue-cli.js';
import { createProgress } from './progress.js';
import type { ImportArgs } from './import-args.js';
import { interruptionOf } from './interrupt.js';
import { previewImport } from '../ingest/import-preview.js';
import type { RejectLog } from '../ingest/reject-log.js';
import { whereRejected } from '../ingest/ndjson-records.js';
import { GIVE_UP_AFTER } from '../pixels/extract-colors.js';

/** Checks every line and compares the records with the live catalogue; exit 0 when the real import would succeed, 1 when not. */
export async function importDryRun(
  { config, es, say, signal }: CommandContext,
  args: ImportArgs,
  { input, total, rejects, lockBusy }: { input: Readable; total: number | undefined; rejects: RejectLog; lockBusy: boolean },
): Promise<number> {
  if (args.images) say('pictures are not read in a dry run: a record whose palette --extract-colors would add is compared as it stands');
  const progress = createProgress({ total, label: 'read', unit: 'records', failedWord: 'rejected' });
  try {
    const preview = await previewImport(es, {
      alias: config.indexAlias,
      input,
      incremental: args.incremental,
      allowRejects: args.allowRejects,
      ...(args.allowDeletes === undefined ? {} : { allowDeletes: args.allowDeletes }),
      batchSize: args.batchSize,
      signal,
      onRead: () => rejects.begin(),
      onProgress: ({ lines, rejected }) => progress.update(lines, rejected),
      onReject: async (reject) => {
        progress.log(`import: ${whereRejected(reject)} would be rejected: ${reject.reason}`);
        await rejects.write(reject);
      },
    });
    progress.finish();
    const rejected =
      preview.rejected === 0 ? 'none rejected' : `${preview.rejected} rejected (allowed ${args.allowRejects}), listed in ${rejects.path}`;
    say(`${preview.lines} lines read, ${rejected}`);
    const against =
      preview.against === null
        ? `${config.indexAlias} points at no index`
        : `${preview.against} (${preview.live} wallpapers, live behind ${config.indexAlias})`;
    say(`against ${against}:`);
    const absent = preview.deletionsOfAbsent === 0 ? '' : `, ${preview.deletionsOfAbsent} deletions of ids it does not hold`;
    const gone = args.incremental ? `${preview.deleted} deleted` : `${preview.deleted} deleted (not in the input)`;
    say(`  ${preview.added} new, ${preview.changed} changed, ${preview.unchanged} unchanged, ${gone}${absent}`);
    if (preview.failure !== null) {
      say(`the import would fail: ${preview.failure}`);
      return EXIT_FAILED;
    }
    const outcome = args.incremental
      ? 'the import would succeed'
      : `the import would succeed and replace ${preview.against ?? 'nothing'} behind ${config.indexAlias}`;
    // What a dry run cannot see: whether the pictures can be read, and the lock another run holds now.
    const unless = [
      ...(args.images ? [`unless the pictures cannot be read (--extract-colors fails a run when none of the first ${GIVE_UP_AFTER} can be)`] : []),
      ...(lockBusy ? ['once the catalogue lock is free (a real run now would be refused, exit 3)'] : []),
    ];
    say([outcome, ...unless].join(', '));
    return 0;
  } catch (error) {
    progress.finish();
    if (interruptionOf(error)) {
      say(`${(error as Error).message}; nothing changed`);
      return failureCode(error);
    }
    throw error;
  }
}
