// The viewers of a burst of opens (issue 37; started by bench/engagement/burst.mjs, which measures the vendor's calls
// beside it): LINKS distinct links of an on-view task opened within SECONDS, each by a client that does what the share
// page does (the page, then its stream's playlist every 0.3 s until it names a segment, the first segment, then the
// playlist every second as hls.js reloads a live one) and plays it out in time for WATCH seconds: a stall is the
// playhead reaching the end of what the playlist names before it ends. BROWSERS of the links (spread over the burst)
// are opened in Debian's Chromium instead, timed to their first frame playing and their `waiting` events counted.
// Writes `opening` on a line of its own as the first link is opened, then the results as one JSON line.
// Usage: node burst-viewers.mjs LINKS_FILE SECONDS WATCH BROWSERS NICE
import fs from 'node:fs';
import os from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, '../../build/node/package.json'));
const { chromium } = require('playwright-core');
const [linksFile, secondsArg, watchArg, browsersArg, niceArg] = process.argv.slice(2);
const links = fs.readFileSync(linksFile, 'utf8').split('\n').filter(Boolean);
const seconds = Number(secondsArg);
const watch = Number(watchArg);
const browsers = Number(browsersArg);
const viewerNice = Number(niceArg);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const now = () => performance.now();

/** What the page's script and hls.js do with one link, in time. */
async function open(url) {
  const result = { status: 0, firstSegmentMs: null, stalls: 0, stalledMs: 0, errors: 0, fiveXX: 0 };
  const start = now();
  const get = async (u) => {
    const r = await fetch(u, { cache: 'no-store' });
    if (r.status >= 500) { result.fiveXX++; }
    return r;
  };
  const page = await get(url);
  result.status = page.status;
  await page.arrayBuffer();
  const playlist = async () => {
    const r = await get(url + '/stream.m3u8');
    const text = await r.text();
    if (r.status !== 200) {
      result.refused = (result.refused || 0) + 1;
      return { ok: false, segments: [], duration: 0, ended: false };
    }
    const lines = text.split('\n');
    let duration = 0;
    const segments = [];
    for (const line of lines) {
      if (line.startsWith('#EXTINF:')) { duration += parseFloat(line.slice(8)); }
      else if (line && !line.startsWith('#')) { segments.push(line); }
    }
    return { ok: r.status === 200, segments, duration, ended: text.includes('#EXT-X-ENDLIST') };
  };
  let list = await playlist();
  while (list.segments.length === 0 && now() - start < watch * 1000) {
    await sleep(300);
    list = await playlist();
  }
  if (list.segments.length === 0) { return result; }
  const segment = await get(list.segments[0]);
  await segment.arrayBuffer();
  if (segment.status !== 200) { result.errors++; return result; }
  const first = now();
  result.firstSegmentMs = first - start;
  // playback from the first segment: the playhead advances in real time except while it waits for more
  let stalledSince = null;
  while (now() - first < watch * 1000) {
    await sleep(1000);
    list = await playlist();
    const playhead = (now() - first - result.stalledMs - (stalledSince === null ? 0 : now() - stalledSince)) / 1000;
    if (stalledSince === null && playhead >= list.duration && !list.ended) {
      stalledSince = now();
      result.stalls++;
    } else if (stalledSince !== null && (list.duration > playhead || list.ended)) {
      result.stalledMs += now() - stalledSince;
      stalledSince = null;
    }
    if (list.ended && playhead >= list.duration) { break; }
  }
  if (stalledSince !== null) { result.stalledMs += now() - stalledSince; }
  return result;
}

/** One link in Chromium: its first frame playing, and the player's `waiting` events within `watch` seconds. */
async function inBrowser(browser, url) {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.addInitScript(() => {
      window.__waiting = 0;
      document.addEventListener('waiting', () => { window.__waiting++; }, true);
    });
    await page.goto(url, { waitUntil: 'commit' });
    const handle = await page.waitForFunction(() => {
      const v = document.getElementById('player');
      if (!v || v.hidden || v.readyState < 2 || v.currentTime <= 0) { return false; }
      return { ms: performance.now(), player: v.getAttribute('data-player') || 'mp4' };
    }, null, { timeout: watch * 1000, polling: 'raf' });
    const first = await handle.jsonValue();
    await sleep(Math.max(0, watch * 1000 - first.ms));
    return { ...first, waiting: await page.evaluate(() => window.__waiting) };
  } catch (error) {
    return { ms: null, error: String(error.message || error).split('\n')[0] };
  } finally {
    await context.close();
  }
}

// The browsers stand for viewers' own machines, as this whole process does (burst.mjs starts it at the viewers' nice,
// BURST_VIEWER_NICE): here they share the platform's cores, so they run behind it, as they would beside it elsewhere.
// Without CAP_SYS_NICE: Chromium run by root raises its renderers and display threads to nice -8 (seen in top during
// the run of 2026-12-01 11:37Z: its processes took 100-140 % of the two cores' 200 % at -8 and 5), which nice alone
// does not stop. (Another user has no such right, and may not drop it either: setpriv needs CAP_SETPCAP.) And the
// browser's nice alone counted for nothing here: Playwright starts it in a session of its own (detached), and with
// the kernel's autogroups on (/proc/sys/kernel/sched_autogroup_enabled, as on this machine) the CPU is shared between
// sessions first, so Chromium's session at nice 0 weighed as much as the whole platform's (every JVM, Kafka, S3Proxy
// and FFmpeg share the one session ./pmedia up started). The wrapper gives its session the viewers' nice too; the
// browser inherits this process's own.
const niced = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'burst-')), 'chromium');
fs.writeFileSync(niced, `#!/bin/sh\necho ${viewerNice} > /proc/self/autogroup 2>/dev/null\n`
  + `[ "$(id -u)" = 0 ] && exec setpriv --bounding-set -sys_nice /usr/bin/chromium "$@"\n`
  + `exec /usr/bin/chromium "$@"\n`, { mode: 0o755 });
const browser = await chromium.launch({
  executablePath: niced,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--no-first-run', '--autoplay-policy=no-user-gesture-required'],
});
try {
  const every = Math.max(1, Math.floor(links.length / Math.max(1, browsers)));
  const opens = [];
  process.stdout.write('opening\n');
  for (let i = 0; i < links.length; i++) {
    opens.push(i % every === 0 && i / every < browsers
      ? inBrowser(browser, links[i]).then((r) => ({ browser: r }))
      : open(links[i]).then((r) => ({ client: r }),
        (error) => ({ client: { status: 0, firstSegmentMs: null, stalls: 0, stalledMs: 0, errors: 1, fiveXX: 0,
          failure: String(error.message || error) } })));
    await sleep(seconds * 1000 / links.length);
  }
  const results = await Promise.all(opens);
  process.stdout.write(JSON.stringify({ results }) + '\n');
} finally {
  await browser.close();
  fs.rmSync(path.dirname(niced), { recursive: true, force: true });
}
