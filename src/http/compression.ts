import { constants } from 'node:zlib';
import compress from 'koa-compress';

/** gzip and br for bodies of 1 KB and more, negotiated by Accept-Encoding; br at a fast quality level. */
export function compression() {
  return compress({
    threshold: 1024,
    gzip: { level: 6 },
    br: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
    deflate: false,
  });
}
