import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

// The package's directory, resolved through its package.json: importing the package itself
// (its main, index.js) would evaluate the whole 1.7 MB swagger-ui-bundle.js in this process,
// when the browser is the only thing that runs it.
const SWAGGER_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

export interface StaticAsset {
  type: string;
  body: Buffer | string;
}

const INDEX_HTML = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Wallpaper Catalogue API reference</title>
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
  <div id="reference"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>
`;

const INIT_JS = `window.ui = SwaggerUIBundle({
  url: '/v1/openapi.json',
  dom_id: '#reference',
  deepLinking: true,
  defaultModelsExpandDepth: 1,
  docExpansion: 'list',
  tryItOutEnabled: false,
});
`;

/** The paths of the reference page and, for each, how to produce its content. */
const SOURCES = new Map<string, { type: string; body: string | { file: string } }>([
  ['/docs', { type: 'text/html; charset=utf-8', body: INDEX_HTML }],
  ['/docs/init.js', { type: 'application/javascript; charset=utf-8', body: INIT_JS }],
  ['/docs/swagger-ui.css', { type: 'text/css; charset=utf-8', body: { file: 'swagger-ui.css' } }],
  ['/docs/swagger-ui-bundle.js', { type: 'application/javascript; charset=utf-8', body: { file: 'swagger-ui-bundle.js' } }],
]);

export const DOCS_PATHS: readonly string[] = [...SOURCES.keys()];

// The page's own scripts, styles and the document only, never framed (clickjacking). Swagger UI
// draws its icons from data: URLs, the one allowance (the browser test reports any violation).
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const loaded = new Map<string, StaticAsset>();

/**
 * The human-readable reference: Swagger UI from the swagger-ui-dist npm
 * package, served from this process (no CDN, works offline), rendering
 * /v1/openapi.json. A file is read on its first request and kept for the
 * life of the process, however many apps it builds; a process nobody asks for
 * /docs never holds them.
 */
export function docsAsset(path: string): StaticAsset | undefined {
  let asset = loaded.get(path);
  if (asset) return asset;
  const source = SOURCES.get(path);
  if (!source) return undefined;
  const { type, body } = source;
  asset = { type, body: typeof body === 'string' ? body : readFileSync(join(SWAGGER_DIR, body.file)) };
  loaded.set(path, asset);
  return asset;
}
