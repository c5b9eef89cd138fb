import { constants } from 'node:buffer';
import {
  type ConnectionRequestOptions,
  type ConnectionRequestOptionsAsStream,
  type ConnectionRequestParams,
  type ConnectionRequestResponse,
  type ConnectionRequestResponseAsStream,
  UndiciConnection,
  errors,
} from '@elastic/elasticsearch';

const COMPRESSED = /gzip|deflate/i;

/**
 * The client's Undici connection, reading each answer as bytes. The stock connection decodes the
 * body chunk by chunk into strings and joins them, and the parser then flattens the join: on the
 * JavaScript heap that is three copies of every answer where one will do (the transport decodes
 * the bytes once). Measured on filtered list pages: about 9 KB less allocated a request, of 145.
 * Size limits and failures are those of the stock connection.
 */
export class BufferedConnection extends UndiciConnection {
  override request(params: ConnectionRequestParams, options: ConnectionRequestOptions): Promise<ConnectionRequestResponse>;
  override request(params: ConnectionRequestParams, options: ConnectionRequestOptionsAsStream): Promise<ConnectionRequestResponseAsStream>;
  override async request(
    params: ConnectionRequestParams,
    options: ConnectionRequestOptions | ConnectionRequestOptionsAsStream,
  ): Promise<ConnectionRequestResponse | ConnectionRequestResponseAsStream> {
    if ('asStream' in options && options.asStream) return super.request(params, options);
    const { statusCode, headers, body } = await super.request(params, { ...options, asStream: true });
    const compressed = COMPRESSED.test(String(headers['content-encoding'] ?? ''));
    const limit = compressed ? (options.maxCompressedResponseSize ?? constants.MAX_LENGTH) : (options.maxResponseSize ?? constants.MAX_STRING_LENGTH);
    const kind = compressed ? 'buffer' : 'string';
    const tooLarge = (length: number) =>
      new errors.RequestAbortedError(`The content length (${length}) is bigger than the maximum allowed ${kind} (${limit})`);
    const declared = Number(headers['content-length'] ?? 0);
    const chunks: Buffer[] = [];
    let length = 0;
    try {
      if (declared > limit) throw tooLarge(declared);
      for await (const chunk of body as unknown as AsyncIterable<Buffer>) {
        length += chunk.length;
        if (length > limit) throw tooLarge(length);
        chunks.push(chunk);
      }
    } catch (err) {
      // Undici's body reports its own destruction as an error; this answer is already failing.
      const stream = body as unknown as NodeJS.ReadableStream & { destroy(): void };
      stream.on('error', () => undefined);
      stream.destroy();
      if (err instanceof errors.RequestAbortedError) throw err;
      throw new errors.ConnectionError((err as Error).message);
    }
    return { statusCode, headers, body: Buffer.concat(chunks, length) };
  }
}
