import { EXIT_USAGE, failureCode, main, type CatalogueCommand } from '../src/catalogue/cli/catalogue-cli.js';
import { finishKilledRuns } from '../src/catalogue/admin/killed-runs.js';
import { dryRunNotes } from '../src/catalogue/cli/dry-run-notes.js';
import { importDryRun } from '../src/catalogue/cli/import-dry-run.js';
import { interruptionOf } from '../src/catalogue/cli/interrupt.js';
import { countLines } from '../src/catalogue/cli/count-lines.js';
import { openInput } from '../src/catalogue/cli/open-input.js';
import { defaultRejectsPath, IMPORT_USAGE, parseImportArgs, type ImportArgs } from '../src/catalogue/cli/import-args.js';
import { importCatalogue, ImportError, type ImportResult } from '../src/catalogue/ingest/import-catalogue.js';
import { createProgress, type ProgressReporter } from '../src/catalogue/cli/progress.js';
import { openRejectLog } from '../src/catalogue/ingest/reject-log.js';
import { whereRejected } from '../src/catalogue/ingest/ndjson-records.js';
import { UsageError } from '../src/catalogue/cli/cli-args.js';
import { checkRejectsPath, fileProblem, inputOnDisk } from '../src/catalogue/cli/rejects-path.js';
import { type ExtractCounts, withExtractedColors } from '../src/catalogue/pixels/extract-colors.js';
import { describeExtraction } from '../src/catalogue/cli/extraction-report.js';
import { describeCompaction } from '../src/catalogue/cli/compaction-report.js';

const command: CatalogueCommand<ImportArgs> = {
  name: 'import',
  usage: IMPORT_USAGE,
  parse: (argv) => parseImportArgs(argv),
  async check({ input, rejects }) {
    const info = await inputOnDisk(input);
    if (input !== '-' && info.isDirectory()) throw new UsageError(`${input} is a directory`);
    await checkRejectsPath(rejects ?? defaultRejectsPath(input, { regularFile: input !== '-' && info.isFile() }), info);
  },
  locked: (args) => !args.dryRun,
  async run(context, args) {
    const { config, es, say, signal, lock } = context;
    const alias = config.indexAlias;
    let lockBusy = false;
    if (args.dryRun) {
      say('dry run: nothing will be written to the catalogue');
      const { notes, busy } = await dryRunNotes(es, context.redis, alias);
      for (const line of notes) say(line);
      lockBusy = busy;
    } else for (const done of await finishKilledRuns(es, alias, { fence: async () => lock?.confirm() })) say(done);
    // Opened before anything is created, so an unreadable input fails cleanly and changes nothing.
    const file =
      args.input === '-'
        ? null
        : await openInput(args.input, signal, () => say(`waiting for a writer to open ${args.input}`)).catch((error: NodeJS.ErrnoException) => error);
    if (file instanceof Error) {
      if (interruptionOf(file)) {
        say(`${file.message} while waiting for ${args.input}'s writer; nothing changed`);
        return failureCode(file);
      }
      say(`cannot read ${args.input}: ${fileProblem(file)}`);
      return EXIT_USAGE;
    }
    // A pipe (`<(zcat file.gz)`, /dev/stdin) can be read once only: no line count, so no ETA.
    const regularFile = file?.regularFile ?? false;
    const total = regularFile ? await countLines(args.input) : undefined;
    const rejects = openRejectLog(args.rejects ?? defaultRejectsPath(args.input, { regularFile }));
    if (args.dryRun) {
      try {
        return await importDryRun(context, args, {
          lockBusy,
          input: file === null ? process.stdin : file.stream,
          total,
          rejects,
        });
      } finally {
        await rejects.close();
        file?.stream.destroy();
      }
    }
    const display: { progress?: ProgressReporter } = {};
    const print = (line: string) => (display.progress ? display.progress.log(`import: ${line}`) : say(line));
    const images = args.images;
    const extraction: ExtractCounts = { extracted: 0, failed: 0, kept: 0, seconds: 0 };
    // Said as soon as the records are searchable: a full import's merge to one segment follows.
    const summarise = (done: ImportResult) => {
      display.progress?.finish();
      const rejected = done.rejected === 0 ? 'none rejected' : `${done.rejected} rejected (allowed ${args.allowRejects}), listed in ${rejects.path}`;
      // An incremental run writes only what changes: a record identical to the catalogue's is not rewritten.
      const loaded = args.incremental
        ? `${done.loaded} change${done.loaded === 1 ? '' : 's'} (upserts and deletions) written from ${done.lines} lines`
        : `${done.loaded} records loaded from ${done.lines} lines`;
      say(`${loaded}, ${rejected}`);
      const { upserts, deletes, unchanged } = done.changes;
      say(`change feed: ${upserts} new or changed, ${deletes} deleted, ${unchanged} unchanged`);
      if (images) say(describeExtraction(extraction));
      if (!args.incremental) {
        say(`alias ${alias} -> ${done.index} (was: ${done.previous.join(', ') || 'none'})`);
        say(`pruned: ${done.pruned.join(', ') || 'none'}`);
      }
      say(`${args.incremental ? 'done' : 'live'} in ${done.seconds.toFixed(1)}s (${Math.round(done.lines / done.seconds)} records/s)`);
    };
    try {
      const result = await importCatalogue(es, {
        alias,
        resultWindow: config.maxResultWindow,
        input: file === null ? process.stdin : file.stream,
        incremental: args.incremental,
        allowRejects: args.allowRejects,
        ...(args.allowDeletes === undefined ? {} : { allowDeletes: args.allowDeletes }),
        keep: args.keep,
        batchSize: args.batchSize,
        concurrency: args.concurrency,
        ...(images
          ? {
              enrich: (documents) =>
                withExtractedColors(
                  documents,
                  { ...images, signal, onFailure: ({ id, url, reason }) => print(`id ${id}: no palette, picture ${url}: ${reason}`) },
                  extraction,
                ),
            }
          : {}),
        signal,
        confirmLock: async () => lock?.confirm(),
        onTarget: (index) => {
          rejects.begin();
          const source = args.input === '-' ? 'standard input' : total === undefined ? args.input : `${args.input} (${total} lines)`;
          say(args.incremental ? `upserting ${source} into ${index}, the live index of ${alias}` : `loading ${source} into new index ${index}`);
          // Records read, of which some are rejected: what was written is said when the run ends
          // (a bar that said "imported" had counted 100,000 over an index that took none, helper-111).
          display.progress = createProgress({ total, label: 'read', unit: 'records', failedWord: 'rejected' });
        },
        onProgress: ({ lines, rejected }) => display.progress?.update(lines, rejected),
        onReject: async (reject) => {
          print(`${whereRejected(reject)} rejected: ${reject.reason}`);
          await rejects.write(reject);
        },
        onLive: summarise,
      });
      if (args.incremental) summarise(result);
      if (result.compaction) say(describeCompaction(result.index, result.compaction));
      return 0;
    } catch (error) {
      display.progress?.finish();
      if (!(error instanceof ImportError)) throw error;
      if (error.rejected > 0) say(`${error.rejected} rejected line${error.rejected === 1 ? '' : 's'} listed in ${rejects.path}`);
      if (error.index === null) {
        say(`${error.message}; nothing changed`);
      } else if (args.incremental) {
        say(
          `${error.message}; ${error.loaded} change${error.loaded === 1 ? ' was' : 's were'} written into ${error.index} before it stopped ` +
            "(upserts and deletions; they stay; a record identical to the catalogue's is not rewritten)",
        );
      } else {
        const leftover = error.discarded
          ? `${error.index} deleted`
          : `${error.index} could not be deleted (marked building, the next run removes it)`;
        say(`${error.message}; alias ${alias} left unchanged, ${leftover}`);
      }
      return failureCode(error);
    } finally {
      await rejects.close();
      file?.stream.destroy();
    }
  },
};

main(command);
