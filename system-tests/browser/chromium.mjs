// What every browser test here shares: playwright-core and the other npm tools from build/node, and Debian's
// Chromium launched headless as contracts.md says (2026-11-27).
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/** `require` resolving from build/node (playwright-core, axe-core). */
export const requireTool = createRequire(path.join(here, '../../build/node/package.json'));

/** Debian's Chromium, headless, videos allowed to play without a gesture. */
export function launchChromium() {
  const { chromium } = requireTool('playwright-core');
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
      '--disable-component-update', '--no-first-run', '--autoplay-policy=no-user-gesture-required'],
  });
}
