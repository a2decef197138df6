// Pages in a real browser, for the browser test and the benchmark: a static
// server of the web/ folder on 127.0.0.1 (plus routes given in memory), and
// Debian's Chromium, headless, driven by playwright-core (it downloads no
// browser of its own).
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const web = fileURLToPath(new URL('../', import.meta.url));
export const chromiumPath = process.env.MARTIANDICE_CHROMIUM ?? '/usr/bin/chromium';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

// Cross-origin isolation: performance.now() in the page is then precise to
// 5 µs instead of 100 µs (the benchmark's figures).
const ISOLATION = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-embedder-policy': 'require-corp',
};

/**
 * Serves web/'s files (and `routes`: path -> text) on 127.0.0.1, an unused
 * port. Resolves to {url, close()}.
 */
export function serveWeb(routes = {}) {
  const server = createServer(async (request, response) => {
    const path = decodeURIComponent(new URL(request.url, 'http://x').pathname);
    if (path in routes) {
      response.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'text/plain', ...ISOLATION });
      response.end(routes[path]);
      return;
    }
    const file = normalize(join(web, path));
    if (!file.startsWith(web) || file.split(sep).includes('node_modules')) {
      response.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      response.writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'cache-control': 'no-store',
        ...ISOLATION,
      });
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({
        url: `http://127.0.0.1:${server.address().port}/`,
        close: () => new Promise((done) => server.close(done)),
      });
    });
  });
}

/** Why the browser cannot run here, or null. */
export async function browserMissing() {
  if (!existsSync(chromiumPath)) return `no Chromium at ${chromiumPath} (apt-get install chromium)`;
  try {
    await import('playwright-core');
  } catch {
    return 'playwright-core is not installed (cd web && npm ci)';
  }
  return null;
}

/**
 * Debian's Chromium, headless, with no traffic of its own to the network;
 * `extraArgs`: more command-line switches (the benchmark's --js-flags).
 */
export async function launchChromium(extraArgs = []) {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', ...extraArgs],
  });
}

/**
 * For a test file: the web server and Chromium, started before its tests and
 * closed after them. `missing` says why no browser runs (its tests then skip;
 * with MARTIANDICE_REQUIRE_BROWSER set that is an error); `url(path)` is the
 * address of a file of web/; `newPage(options)` opens a page (in a context of
 * its own); `newContext(options)`, a context for pages that share a storage.
 */
export async function browserTests() {
  const { after, before } = await import('node:test');
  const missing = await browserMissing();
  if (missing && process.env.MARTIANDICE_REQUIRE_BROWSER) throw new Error(`browser test: ${missing}`);
  let server;
  let browser;
  before(async () => {
    if (missing) return;
    server = await serveWeb();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });
  return {
    missing, url: (path) => `${server.url}${path}`, newPage: (options) => browser.newPage(options),
    newContext: (options) => browser.newContext(options),
  };
}
