import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { DEFAULT_IMAGE_SOURCE, ImageFetchError, fetchImage } from '../../../../src/catalogue/pixels/fetch-image.js';

describe('reading pictures from a folder (--images-dir)', () => {
  const root = mkdtempSync(join(tmpdir(), 'wpc-images-'));
  const dir = join(root, 'mirror');
  mkdirSync(join(dir, 'thumb'), { recursive: true });
  writeFileSync(join(dir, 'thumb', '7-lake.jpg'), 'bytes of 7');
  writeFileSync(join(root, 'secret.txt'), 'not for you');
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
});
