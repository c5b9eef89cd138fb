import type { Context } from 'koa';

const FORM_BYTES_MAX = 8 * 1024;

export class FormError extends Error {
  constructor(
    readonly status: 400 | 413 | 415,
    message: string,
  ) {
    super(message);
  }
}

/** The fields of a urlencoded form, each once; anything else is refused. */
export async function readForm(ctx: Context): Promise<Map<string, string>> {
  if (!ctx.is('application/x-www-form-urlencoded')) throw new FormError(415, 'Forms are sent as application/x-www-form-urlencoded.');
  const declared = Number(ctx.get('Content-Length') || 0);
  if (declared > FORM_BYTES_MAX) throw new FormError(413, 'The form is too large.');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > FORM_BYTES_MAX) throw new FormError(413, 'The form is too large.');
    chunks.push(chunk);
  }
  const fields = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(Buffer.concat(chunks).toString('utf8'))) {
    if (fields.has(name)) throw new FormError(400, `The field '${name}' was sent twice.`);
    fields.set(name, value);
  }
  return fields;
}
