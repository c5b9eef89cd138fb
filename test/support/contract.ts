import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { type JsonObject, openApiDocument, resolveRef } from '../../src/openapi/document.js';

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(openApiDocument, 'openapi');

const templates = Object.keys(openApiDocument['paths']).map((template) => ({
  template,
  regex: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
}));

const validators = new Map<string, ReturnType<typeof ajv.compile>>();
function validatorFor(pointer: string) {
  let validate = validators.get(pointer);
  if (!validate) {
    validate = ajv.compile({ $ref: `openapi#${pointer}` });
    validators.set(pointer, validate);
  }
  return validate;
}

function pointerOf(template: string, method: string, status: string): string {
  const escaped = template.replace(/~/g, '~0').replace(/\//g, '~1');
  return `/paths/${escaped}/${method}/responses/${status}/content/application~1json/schema`;
}

function headerValue(value: string, schema: JsonObject): unknown {
  return schema['type'] === 'integer' && /^-?\d+$/.test(value) ? Number(value) : value;
}

export interface ObservedResponse {
  method: string;
  path: string;
  status: number;
  headers: Headers;
  body: unknown;
}

/**
 * Checks one response against the OpenAPI document: the status is documented
 * for the operation, the JSON body matches its schema, and every required
 * header is present and valid. Returns the violations (empty when conforming).
 */
export function contractViolations({ method, path, status, headers, body }: ObservedResponse): string[] {
  const pathname = new URL(path, 'http://x').pathname;
  const match = templates.find((t) => t.regex.test(pathname));
  const violations: string[] = [];
  const isJson = (headers.get('content-type') ?? '').startsWith('application/json');
  if (!match) {
    if (status >= 400 && method !== 'HEAD' && pathname.startsWith('/v1')) {
      const validate = validatorFor('/components/schemas/Error');
      if (!isJson) violations.push(`${status} on ${pathname} is not JSON`);
      else if (!validate(body)) violations.push(`error body: ${ajv.errorsText(validate.errors)}`);
    }
    return violations;
  }
  const pathItem = openApiDocument['paths'][match.template];
  const opMethod = method === 'HEAD' ? 'get' : method.toLowerCase();
  const operation = pathItem[opMethod] ?? pathItem['get'];
  const responseSpec = operation['responses'][String(status)];
  if (!responseSpec) return [`status ${status} is not documented for ${method} ${match.template}`];
  const response = resolveRef(responseSpec);
  const refTarget = (responseSpec['$ref'] as string | undefined)?.replace(/^#/, '');
  if (response['content'] && method !== 'HEAD' && status !== 304) {
    if (!isJson) violations.push(`${status} on ${match.template} is not application/json`);
    const pointer = refTarget ? `${refTarget}/content/application~1json/schema` : pointerOf(match.template, opMethod, String(status));
    const validate = validatorFor(pointer);
    if (!validate(body)) violations.push(`${status} body on ${match.template}: ${ajv.errorsText(validate.errors)}`);
  }
  for (const [name, spec] of Object.entries((response['headers'] ?? {}) as Record<string, JsonObject>)) {
    const header = resolveRef(spec);
    const value = headers.get(name);
    if (value === null) {
      if (header['required']) violations.push(`${status} on ${match.template} lacks required header ${name}`);
      continue;
    }
    const validate = ajv.compile(header['schema'] ?? {});
    if (!validate(headerValue(value, header['schema'] ?? {}))) {
      violations.push(`header ${name}: ${JSON.stringify(value)} ${ajv.errorsText(validate.errors)}`);
    }
  }
  return violations;
}
