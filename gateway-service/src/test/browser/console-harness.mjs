// What the console's browser scripts share, run without a stack. The console's files as they serve them: those of
// the console/ folder that files.txt lists, and the TypeScript SDK as gateway-service's build bundles it
// (vendor/pmedia-client.mjs, made by esbuild in generate-resources; Maven's test phase comes after it). hls.js is not
// served: a test render plays in the browser's own player. And Debian's Chromium, driven by playwright-core from
// build/node.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '../../../../build/node/package.json'));
const BUILT = path.join(here, '../../../target/classes/META-INF/pmedia-console');
const TYPES = { html: 'text/html', js: 'text/javascript', mjs: 'text/javascript', css: 'text/css', svg: 'image/svg+xml' };

/**
 * A function answering a console file's name ('index.html', 'js/app.js', 'vendor/pmedia-client.mjs') with
 * {contentType, body} as the gateway serves it under version 'test', or null for a file the console does not have.
 */
export function consoleFiles(consoleDir, builtDir = process.env.PMEDIA_CONSOLE_BUILT || BUILT) {
  const listed = new Set(fs.readFileSync(path.join(consoleDir, 'files.txt'), 'utf8').split('\n').map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#')));
  const sdk = path.join(builtDir, 'vendor/pmedia-client.mjs');
  if (!fs.existsSync(sdk)) {
    throw new Error(`${sdk} is missing: the console calls the API through it (./mvnw -pl gateway-service generate-resources)`);
  }
  return (name) => {
    if (!listed.has(name) || (name.startsWith('vendor/') && name !== 'vendor/pmedia-client.mjs')) { return null; }
    const file = name.startsWith('vendor/') ? path.join(builtDir, name) : path.join(consoleDir, name);
    const body = fs.readFileSync(file, 'utf8').replaceAll('@VERSION@', 'test');
    return { contentType: `${TYPES[name.split('.').pop()]}; charset=utf-8`, body };
  };
}

/** Debian's Chromium, headless, through playwright-core. */
export function launchChromium() {
  return require('playwright-core').chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--no-first-run'],
  });
}

/**
 * Runs each step with the browser, then prints {checks, pageErrors} as one JSON line (what the Java runner reads); a
 * step that throws is the failed check "the test itself".
 */
export async function runChecks(checks, pageErrors, ...steps) {
  const browser = await launchChromium();
  try {
    for (const step of steps) { await step(browser); }
  } catch (error) {
    checks.push({ name: 'the test itself', ok: false, detail: String(error && error.stack || error).slice(0, 2000) });
  } finally {
    await browser.close();
  }
  process.stdout.write(`${JSON.stringify({ checks, pageErrors })}\n`);
}
