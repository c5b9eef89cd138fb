import { PassThrough, Readable } from 'node:stream';
import { expect } from 'chai';
import { type InputLine, inputLines } from '../../../../src/catalogue/ingest/input-lines.js';

async function lines(chunks: (string | Buffer)[], maxBytes = 1000): Promise<InputLine[]> {
  const out: InputLine[] = [];
  for await (const line of inputLines(Readable.from(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c) : c))), maxBytes)) out.push(line);
  return out;
}
const texts = (read: InputLine[]) => read.map((line) => `${line.kind}:${line.text}`);

describe('the lines of an import`s input', () => {
  it('when lines end in LF or CRLF, then each is a line, without its CR, and a last line without a newline counts', async () => {
    expect(texts(await lines(['a\nb\r\n', 'c']))).to.deep.equal(['text:a', 'text:b', 'text:c']);
    expect(texts(await lines(['a\n']))).to.deep.equal(['text:a']);
    expect(await lines([])).to.deep.equal([]);
  });

  it('when a CR stands alone inside a line, then it is part of the line, not its end (JSON whitespace)', async () => {
    expect(texts(await lines(['{"id":\r1}\n{"id":2}\n']))).to.deep.equal(['text:{"id":\r1}', 'text:{"id":2}']);
  });

  it('when a line and its characters are split across chunks, then it is read whole', async () => {
    const e = Buffer.from('é');
    expect(texts(await lines([Buffer.from('ab'), e.subarray(0, 1), Buffer.concat([e.subarray(1), Buffer.from('c\r')]), '\nd']))).to.deep.equal([
      'text:abéc',
      'text:d',
    ]);
  });

  it('when a line holds bytes that are not UTF-8, then it is reported so, shown with U+FFFD, and the next line is read', async () => {
    const latin1 = Buffer.from('Caf\xe9\n', 'latin1');
    expect(texts(await lines([latin1, 'ok\n']))).to.deep.equal(['not_utf8:Caf\ufffd', 'text:ok']);
  });

  it('when a line is longer than the bound, then it is reported with its length and start, never held whole, and the next line is read', async () => {
    const long = 'x'.repeat(5000);
    const read = await lines([long.slice(0, 1500), long.slice(1500), '\nnext\n'], 1000);
    expect(read[0]).to.deep.include({ kind: 'too_long', bytes: 5000 });
    expect(read[0]!.text).to.equal('x'.repeat(200));
    expect(texts(read.slice(1))).to.deep.equal(['text:next']);
  });

  it('when a line is exactly at the bound and ends in CRLF, then its CR does not count against the bound', async () => {
    const full = 'x'.repeat(1000);
    expect(texts(await lines([`${full}\r\n`, `${full}\r`, '\n', `${full}`], 1000))).to.deep.equal([`text:${full}`, `text:${full}`, `text:${full}`]);
  });

  it('when a line is one byte past the bound, then it is too long whether or not it ends in CRLF', async () => {
    const over = 'x'.repeat(1001);
    const read = await lines([`${over}\r\n`, `${over}\n`, over], 1000);
    expect(read.map((line) => line.kind)).to.deep.equal(['too_long', 'too_long', 'too_long']);
    expect(read.map((line) => (line.kind === 'too_long' ? line.bytes : 0))).to.deep.equal([1001, 1001, 1001]);
    expect(read[0]!.text).to.equal('x'.repeat(200));
  });

  it('when the input is destroyed while a reader waits for it, then the reader stops at once', async () => {
    const input = new PassThrough();
    input.write('a\n');
    const reader = inputLines(input, 1000);
    expect(await reader.next()).to.deep.include({ value: { kind: 'text', text: 'a' } });
    const waiting = reader.next().then(
      () => 'ended',
      () => 'threw',
    );
    setTimeout(() => input.destroy(), 20);
    expect(await waiting).to.be.oneOf(['ended', 'threw']);
  });
});
