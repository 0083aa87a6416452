/**
 * `/docs`: interactive API documentation (Swagger UI, from the `swagger-ui-dist` package) over
 * the project's openapi.yaml, served as it is at `/docs/openapi.yaml`.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { HttpApp } from './app.js'
import { HttpError } from './errors.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const ASSETS = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
} as const

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Ganglion API</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
  <script>
    window.ui = SwaggerUIBundle({ url: '/docs/openapi.yaml', dom_id: '#ui', deepLinking: true,
      presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout' })
  </script>
</body>
</html>`

export function registerDocsRoutes(app: HttpApp): void {
  const uiDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'))
  // Read once at start-up: a few MB, and a missing file should fail the start, not a request.
  const spec = readFileSync(join(ROOT, 'openapi.yaml'), 'utf8')
  const assets = new Map(Object.entries(ASSETS).map(([name, type]) => [name, { type, body: readFileSync(join(uiDir, name)) }]))

  app.route('GET', '/docs', () => ({ headers: { 'content-type': 'text/html; charset=utf-8' }, raw: PAGE }), { permission: 'public' })
  app.route('GET', '/docs/openapi.yaml', () => ({ headers: { 'content-type': 'application/yaml; charset=utf-8' }, raw: spec }), {
    permission: 'public',
  })
  app.route(
    'GET',
    '/docs/assets/:name',
    (ctx) => {
      const asset = assets.get(ctx.params.name ?? '')
      if (!asset) throw HttpError.notFound('name', 'No such documentation asset')
      return { headers: { 'content-type': asset.type, 'cache-control': 'public, max-age=86400' }, raw: asset.body }
    },
    { permission: 'public' },
  )
}
