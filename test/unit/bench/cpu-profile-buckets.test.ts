import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { summarizeProfile } from '../../../bench/api/cpu-profile-buckets.js';

const frame = (functionName: string, url = '') => ({ functionName, url, lineNumber: 0, columnNumber: 0, scriptId: '0' });

describe('summarizeProfile (bench/api/cpu-profile-buckets.ts)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wpc-profile-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('when samples fall in node internals, packages, our code and native code, then each goes to the innermost owner and idle is left out', () => {
    const profile = {
      nodes: [
        { id: 1, callFrame: frame('(root)'), children: [2, 3, 4, 8, 9] },
        { id: 2, callFrame: frame('(idle)') },
        { id: 3, callFrame: frame('parserOnHeadersComplete', 'node:_http_common') },
        { id: 4, callFrame: frame('handler', 'file:///app/dist/wallpapers/edge/routes.js'), children: [5] },
        { id: 5, callFrame: frame('request', 'file:///app/node_modules/@elastic/transport/lib/Transport.js'), children: [6, 7] },
        { id: 6, callFrame: frame('') },
        { id: 7, callFrame: frame('writeGeneric', 'node:internal/stream_base_commons'), children: [10] },
        { id: 8, callFrame: frame('(garbage collector)') },
        { id: 9, callFrame: frame('toString', 'node:buffer') },
        { id: 10, callFrame: frame('writeUtf8String') },
      ],
      startTime: 0,
      // Each sample stands for the time until the next: the last (idle) for none.
      samples: [2, 2, 3, 6, 6, 7, 4, 8, 9, 10, 2],
      timeDeltas: [100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100],
    };
    const file = join(dir, 'one.cpuprofile');
    writeFileSync(file, JSON.stringify(profile));
    const summary = summarizeProfile(file);
    expect(summary.busyMs).to.be.closeTo(0.8, 1e-9);
    const ms = Object.fromEntries(summary.buckets.map((b) => [b.bucket, b.ms]));
    expect(ms).to.deep.equal({
      'Elasticsearch client and its JSON': 0.3,
      'HTTP parse and write (node)': 0.1,
      'use cases and envelopes (ours)': 0.1,
      'garbage collection': 0.1,
      // A function named like an Object.prototype member is an ordinary function.
      'other node internals': 0.1,
      'socket writes': 0.1,
    });
    expect(summary.functions[0]).to.include({ fn: '(anonymous) :1', bucket: 'Elasticsearch client and its JSON' });
    expect(summary.functions.map((f) => f.fn)).to.not.include('(idle) :1');
  });

  it('when given a window, then only the samples in it are summed', () => {
    const profile = {
      nodes: [
        { id: 1, callFrame: frame('(root)'), children: [2, 3] },
        { id: 2, callFrame: frame('boot', 'file:///app/dist/server.js') },
        { id: 3, callFrame: frame('request', 'file:///app/node_modules/ioredis/built/Redis.js') },
      ],
      // Start-up until 1.5 s, then requests, a sample every 0.5 s, on a clock that began at 7 s.
      startTime: 7_000_000,
      samples: [2, 2, 3, 3, 3, 3, 2],
      timeDeltas: [500_000, 500_000, 500_000, 500_000, 500_000, 500_000, 500_000],
    };
    const file = join(dir, 'window.cpuprofile');
    writeFileSync(file, JSON.stringify(profile));
    const summary = summarizeProfile(file, { fromUs: 8_500_000, toUs: 10_000_000 });
    expect(summary.buckets.map((b) => b.bucket)).to.deep.equal(['Redis client (ioredis)']);
    expect(summary.busyMs).to.equal(1500);
  });
});
