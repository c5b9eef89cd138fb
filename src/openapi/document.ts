import { readFileSync } from 'node:fs';

/** The OpenAPI 3.1 document: the single source of truth for paths, parameters and schemas. */
export const OPENAPI_DOCUMENT_TEXT = readFileSync(new URL('../../openapi/openapi.json', import.meta.url), 'utf8');

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type JsonObject = Record<string, any>;

export const openApiDocument: JsonObject = JSON.parse(OPENAPI_DOCUMENT_TEXT);

/** Follows a local `#/...` reference (repeatedly) to the object it names. */
export function resolveRef(node: JsonObject, doc: JsonObject = openApiDocument): JsonObject {
  let current = node;
  while (typeof current['$ref'] === 'string') {
    const path = (current['$ref']).replace(/^#\//, '').split('/');
    current = path.reduce<JsonObject>((obj, part) => obj[part.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
    if (current === undefined) throw new Error(`unresolvable $ref ${node['$ref']}`);
  }
  return current;
}

export function componentSchema(name: string): JsonObject {
  const schema = openApiDocument['components']?.['schemas']?.[name];
  if (!schema) throw new Error(`OpenAPI document has no schema ${name}`);
  return schema as JsonObject;
}
