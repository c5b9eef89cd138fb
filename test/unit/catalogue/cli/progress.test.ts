import { PassThrough } from 'node:stream';
import { expect } from 'chai';
import { createProgress, formatDuration } from '../../../../src/catalogue/cli/progress.js';

function capture(): { stream: NodeJS.WriteStream; text: () => string } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { stream: stream as unknown as NodeJS.WriteStream, text: () => text };
}

describe('createProgress', () => {
  it('when the stream is not a terminal, then it prints plain progress lines and a summary', async () => {
    const out = capture();
    const progress = createProgress({ total: 1000, stream: out.stream, tty: false, intervalMs: 20 });
    progress.update(120);
    await new Promise((resolve) => setTimeout(resolve, 60));
    progress.update(1000);
    const summary = progress.finish();
    await new Promise((resolve) => setImmediate(resolve));
    expect(out.text()).to.match(/^loaded 120\/1000 \(12\.0%\) \d+ docs\/s eta \d+s$/m);
    expect(summary).to.match(/^loaded 1000\/1000 docs in \d+\.\ds \(\d+ docs\/s\)$/);
    expect(out.text().trimEnd().split('\n').at(-1)).to.equal(summary);
  });

  it('when some documents failed, then the summary says how many', () => {
    const out = capture();
    const progress = createProgress({ total: 10, stream: out.stream, tty: false });
    progress.update(10, 2);
    expect(progress.finish()).to.match(/\(2 failed\)$/);
  });

  it('when the total is unknown, then lines and summary show the count and rate without an ETA', async () => {
    const out = capture();
    const progress = createProgress({ stream: out.stream, tty: false, intervalMs: 20, label: 'imported', unit: 'records', failedWord: 'rejected' });
    progress.update(300, 2);
    await new Promise((resolve) => setTimeout(resolve, 60));
    progress.log('import: line 7 rejected');
    const summary = progress.finish();
    expect(out.text()).to.match(/^imported 300 records \d+ records\/s \(2 rejected\)$/m);
    expect(out.text()).to.match(/^import: line 7 rejected$/m);
    expect(out.text()).not.to.match(/eta/);
    expect(summary).to.match(/^imported 300 records in \d+\.\ds \(\d+ records\/s\) \(2 rejected\)$/);
  });

  it('when durations are formatted, then they read as s, m or h', () => {
    expect(formatDuration(21.4)).to.equal('21s');
    expect(formatDuration(192)).to.equal('3m12s');
    expect(formatDuration(3720)).to.equal('1h02m');
    expect(formatDuration(Infinity)).to.equal('?');
  });
});
