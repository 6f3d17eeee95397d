#!/usr/bin/env node
// A tiny static file server for the page (www/), on 127.0.0.1 only. Used by the page test and
// by `npm run serve` (then open the address it prints). Serves files under one folder, nothing
// else: no directory listings, no paths outside the folder.
//
//   node scripts/serve.mjs [DIR] [PORT]     (defaults: www/, 8080; PORT 0 picks a free port)

import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ts': 'text/plain; charset=utf-8',
};

/**
 * Starts serving `dir` on 127.0.0.1:`port`.
 * @param {string} dir the folder to serve
 * @param {number} port 0 for any free port
 * @returns {Promise<{url: string, close: () => Promise<void>}>}
 */
export function serve(dir, port = 0) {
  const root = resolve(dir);
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      let path = resolve(join(root, decodeURIComponent(url.pathname)));
      if (path !== root && !path.startsWith(root + sep)) throw Object.assign(new Error('outside'), { code: 'ENOENT' });
      if ((await stat(path)).isDirectory()) path = join(path, 'index.html');
      const body = await readFile(path);
      res.writeHead(200, {
        'content-type': TYPES[extname(path)] ?? 'application/octet-stream',
        'cache-control': 'no-store',
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  return new Promise((ok, fail) => {
    server.on('error', fail);
    server.listen(port, '127.0.0.1', () => {
      const { port: p } = server.address();
      ok({
        url: `http://127.0.0.1:${p}/`,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const here = resolve(fileURLToPath(import.meta.url), '..', '..');
  const dir = process.argv[2] ?? join(here, 'www');
  const port = Number(process.argv[3] ?? 8080);
  const { url } = await serve(dir, port);
  console.log(`serving ${dir} at ${url} (Ctrl-C to stop)`);
}
