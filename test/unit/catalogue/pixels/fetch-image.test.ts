import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { DEFAULT_IMAGE_SOURCE, ImageFetchError, ImageFetchStopped, fetchImage } from '../../../../src/catalogue/pixels/fetch-image.js';
import { hungServer } from '../../../support/hung-server.js';

const failure = (call: Promise<unknown>) =>
  call.then(
    () => null,
    (e: unknown) => e as ImageFetchError,
  );

/** A picture server answering each request by `answer`, counting the requests per path. */
async function pictureServer(answer: (req: IncomingMessage, res: ServerResponse) => void) {
  const asked = new Map<string, number[]>();
  const server = createServer((req, res) => {
    asked.set(req.url!, [...(asked.get(req.url!) ?? []), Date.now()]);
    answer(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, asked, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe('reading pictures from a folder (--images-dir)', () => {
  const root = mkdtempSync(join(tmpdir(), 'wpc-images-'));
  const dir = join(root, 'mirror');
  mkdirSync(join(dir, 'thumb'), { recursive: true });
  writeFileSync(join(dir, 'thumb', '7-lake.jpg'), 'bytes of 7');
  writeFileSync(join(root, 'secret.txt'), 'not for you');
  symlinkSync(join(root, 'secret.txt'), join(dir, 'thumb', 'out.jpg'));
  symlinkSync(root, join(dir, 'up'));
  symlinkSync(join(dir, 'thumb', '7-lake.jpg'), join(dir, 'same.jpg'));
  after(() => rmSync(root, { recursive: true, force: true }));
  const source = { ...DEFAULT_IMAGE_SOURCE, dir };

  it("when a URL's path names a file in the folder, then its bytes are read", async () => {
    expect((await fetchImage('https://images.example/thumb/7-lake.jpg', source)).toString()).to.equal('bytes of 7');
  });

  it('when a path spells its way out of the folder, then it is refused, whatever the spelling', async () => {
    for (const url of ['https://x.example/../secret.txt', 'https://x.example/thumb/..%2f..%2fsecret.txt', 'https://x.example/%2e%2e/secret.txt']) {
      const error = await fetchImage(url, source).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error, url).to.be.instanceOf(ImageFetchError);
      expect((error as ImageFetchError).retryable).to.equal(false);
    }
  });

  it('when the file is missing or larger than the cap, then it is refused and not retried', async () => {
    for (const [url, cap, reason] of [
      ['https://x.example/thumb/8.jpg', 1000, /no file/],
      ['https://x.example/thumb/7-lake.jpg', 5, /larger than 5 bytes/],
    ] as const) {
      const error = await fetchImage(url, { ...source, maxBytes: cap }).then(
        () => null,
        (e: unknown) => e as ImageFetchError,
      );
      expect(error?.message).to.match(reason);
    }
  });

  it('when a link in the folder leads outside it, then it is refused; a link to a file inside is read', async () => {
    for (const url of ['https://x.example/thumb/out.jpg', 'https://x.example/up/secret.txt']) {
      const error = await failure(fetchImage(url, source));
      expect(error?.message, url).to.match(/leads outside/);
      expect(error?.retryable).to.equal(false);
    }
    expect((await fetchImage('https://x.example/same.jpg', source)).toString()).to.equal('bytes of 7');
  });

  it('when a URL names the folder itself, then it names no file', async () => {
    expect((await failure(fetchImage('https://x.example/', source)))?.message).to.equal('https://x.example/ names no file');
  });

  it('when the folder is the root, then a file is read by its whole path', async () => {
    const url = `https://x.example${join(dir, 'thumb', '7-lake.jpg')}`;
    expect((await fetchImage(url, { ...source, dir: '/' })).toString()).to.equal('bytes of 7');
  });
});

describe('fetching pictures over HTTP', () => {
  const source = { ...DEFAULT_IMAGE_SOURCE, timeoutMs: 10_000, backoffMs: 10 };

  it('when the run stops while a picture hangs, then the fetch ends at once and is not tried again', async () => {
    const hung = await hungServer();
    try {
      const stop = new AbortController();
      const started = Date.now();
      setTimeout(() => stop.abort(), 100);
      const error = await failure(fetchImage(`${hung.url}/7.png`, { ...source, signal: stop.signal }));
      expect(error).to.be.instanceOf(ImageFetchStopped);
      expect(Date.now() - started).to.be.below(2_000);
    } finally {
      await hung.close();
    }
  });

  it('when a redirect names no URL, then the picture fails once, not again', async () => {
    const server = await pictureServer((_req, res) => res.writeHead(302, { location: 'http://[::1' }).end());
    try {
      const error = await failure(fetchImage(`${server.url}/nowhere.png`, source));
      expect(error?.retryable).to.equal(false);
      expect(server.asked.get('/nowhere.png')).to.have.length(1);
    } finally {
      await server.close();
    }
  });

  it('when redirects never end, then the picture fails once, not again', async () => {
    const server = await pictureServer((req, res) => res.writeHead(302, { location: `${req.url}x` }).end());
    try {
      const error = await failure(fetchImage(`${server.url}/loop`, source));
      expect(error?.retryable).to.equal(false);
      // fetch follows 20 redirects, so 21 requests make one try.
      expect([...server.asked.values()].reduce((sum, times) => sum + times.length, 0)).to.equal(21);
    } finally {
      await server.close();
    }
  });

  it('when a 429 asks to wait, then the next try waits that long; asked to wait past 30 s, the picture is given up', async () => {
    let first = true;
    const png = Buffer.from('png bytes');
    const server = await pictureServer((req, res) => {
      if (req.url === '/later.png') return res.writeHead(429, { 'retry-after': '120' }).end();
      if (first) {
        first = false;
        return res.writeHead(429, { 'retry-after': '1' }).end();
      }
      res.writeHead(200, { 'content-type': 'Image/PNG' }).end(png);
    });
    try {
      expect(await fetchImage(`${server.url}/soon.png`, source), 'Image/PNG is an image').to.deep.equal(png);
      const [one, two] = server.asked.get('/soon.png')!;
      expect(two! - one!).to.be.at.least(950);
      const error = await failure(fetchImage(`${server.url}/later.png`, source));
      expect(error?.message).to.equal('HTTP 429, asked to wait 120 s');
      expect(server.asked.get('/later.png')).to.have.length(1);
    } finally {
      await server.close();
    }
  });
});
