import { type JsonObject, openApiDocument, resolveRef } from './document.js';

export type ParamSchema = {
  type: 'integer' | 'string' | 'array';
  /** For a comma-separated list (`style: form, explode: false`): the rule of each value. */
  items?: ParamSchema;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  'x-clamp-maximum'?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  enum?: readonly string[];
  'x-format-hint'?: string;
  'x-max-words'?: number;
};

export interface ParamsSchema {
  type: 'object';
  properties: Record<string, ParamSchema>;
  required?: readonly string[];
  additionalProperties: false;
}


// Validation keywords carried over from the document; annotations (description, examples) are dropped.
const KEPT = [
  'type',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'pattern',
  'enum',
  'default',
  'minItems',
  'maxItems',
  'x-clamp-maximum',
  'x-format-hint',
  'x-max-words',
];

function validationSchema(schema: JsonObject): JsonObject {
  const resolved = resolveRef(schema);
  const kept: JsonObject = Object.fromEntries(KEPT.filter((k) => k in resolved).map((k) => [k, resolved[k]]));
  if (resolved['items']) kept['items'] = validationSchema(resolved['items'] as JsonObject);
  return kept;
}

/**
 * The parameters of one operation in one location (query or path), as a
 * schema for compileParams: defaults, bounds and patterns come from the
 * OpenAPI document alone.
 */
export function parametersSchema(path: string, method: string, location: 'query' | 'path'): ParamsSchema {
  const operation = openApiDocument['paths']?.[path]?.[method];
  if (!operation) throw new Error(`OpenAPI document has no ${method.toUpperCase()} ${path}`);
  const params = ((operation['parameters'] ?? []) as JsonObject[]).map((p) => resolveRef(p)).filter((p) => p['in'] === location);
  return {
    type: 'object',
    additionalProperties: false,
    required: params.filter((p) => p['required'] === true).map((p) => p['name'] as string),
    properties: Object.fromEntries(params.map((p) => [p['name'] as string, validationSchema(p['schema'])])),
  } as unknown as ParamsSchema;
}
