import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const SWAGGER_DIR: string = (require('swagger-ui-dist') as { getAbsoluteFSPath(): string }).getAbsoluteFSPath();

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

let assets: Map<string, StaticAsset> | undefined;

/**
 * The human-readable reference: Swagger UI from the swagger-ui-dist npm
 * package, served from this process (no CDN, works offline), rendering
 * /v1/openapi.json. Files are read once per process, however many apps it builds.
 */
export function loadDocsAssets(): Map<string, StaticAsset> {
  assets ??= new Map<string, StaticAsset>([
    ['/docs', { type: 'text/html; charset=utf-8', body: INDEX_HTML }],
    ['/docs/init.js', { type: 'application/javascript; charset=utf-8', body: INIT_JS }],
    ['/docs/swagger-ui.css', { type: 'text/css; charset=utf-8', body: readFileSync(join(SWAGGER_DIR, 'swagger-ui.css')) }],
    [
      '/docs/swagger-ui-bundle.js',
      { type: 'application/javascript; charset=utf-8', body: readFileSync(join(SWAGGER_DIR, 'swagger-ui-bundle.js')) },
    ],
  ]);
  return assets;
}
