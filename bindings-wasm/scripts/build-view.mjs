#!/usr/bin/env node
// `npm run build:view`: the MCP Apps plan view (`ui://momentum-planner/plan-view`, mcp-server.md
// "The plan view in the conversation") as one self-contained HTML document,
// www/view/plan-view.html, from the sources the import page shares:
//
//   www/view/view.html   the document, whose two stylesheet links and one module script are
//                        replaced by their contents, inline;
//   www/view/view.js     the view's shell (the extension's postMessage protocol), bundled by
//                        esbuild with www/dayview.js (the one day-view renderer of both shells)
//                        and minified;
//   www/dayview.css, www/view/view.css   minified by esbuild, in that order.
//
// The output is committed: the WASI server embeds it at build time (include_str!) and the Node and
// Python example servers read the same file, so every server serves the same bytes without Node
// at cargo build time. `--check` rebuilds in memory and fails when the committed file differs
// (bindings-wasm/test/view.test.mjs runs it); `--stdout` prints the document.

import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, transform } from 'esbuild';

const CRATE = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const WWW = join(CRATE, 'www');
const VIEW = join(WWW, 'view');
/** The built view, as committed. */
export const VIEW_HTML = join(VIEW, 'plan-view.html');
/** Its committed copy in the Python package (a wheel carries only the package's own files). */
export const PYTHON_COPY = join(CRATE, '..', 'bindings-python', 'python', 'momentum_plan', 'plan-view.html');

/** The view's bytes, built from the sources (deterministic for a given esbuild version). */
export async function buildView() {
  const js = await build({
    entryPoints: [join(VIEW, 'view.js')],
    bundle: true,
    format: 'esm',
    minify: true,
    target: 'es2022',
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
  });
  const script = js.outputFiles[0].text.trim();
  const styles = readFileSync(join(WWW, 'dayview.css'), 'utf8') + readFileSync(join(VIEW, 'view.css'), 'utf8');
  const css = (await transform(styles, { loader: 'css', minify: true, legalComments: 'none' })).code.trim();
  if (/<\/script/i.test(script) || /<\/style/i.test(css)) throw new Error('an inline script or style would close its element early');
  let html = readFileSync(join(VIEW, 'view.html'), 'utf8');
  const links = /\s*<link rel="stylesheet" href="\.\.\/dayview\.css" \/>\s*<link rel="stylesheet" href="view\.css" \/>/;
  const module = /<script type="module" src="view\.js"><\/script>/;
  if (!links.test(html) || !module.test(html)) throw new Error('view.html no longer has the two stylesheet links and the module script');
  html = html.replace(links, () => `\n    <style>${css}</style>`);
  html = html.replace(module, () => `<script type="module">${script}</script>`);
  return html;
}

async function main() {
  const html = await buildView();
  if (process.argv.includes('--stdout')) return process.stdout.write(html);
  if (process.argv.includes('--check')) {
    let committed = '';
    try {
      committed = readFileSync(VIEW_HTML, 'utf8');
    } catch {}
    if (committed !== html) {
      console.error(`${VIEW_HTML} is not what the sources build: run npm run build:view in bindings-wasm and commit it`);
      process.exit(1);
    }
    return console.log(`${VIEW_HTML}: up to date, ${Buffer.byteLength(html)} bytes`);
  }
  writeFileSync(VIEW_HTML, html);
  writeFileSync(PYTHON_COPY, html);
  console.log(`${VIEW_HTML}: ${Buffer.byteLength(html)} bytes`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error(`build-view failed: ${e.message}`);
    process.exit(1);
  });
}
