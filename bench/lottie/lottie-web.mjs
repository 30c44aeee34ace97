// bench/lottie, peer (3): what puppeteer-lottie does. lottie-web (its SVG renderer) in Debian's Chromium, each frame
// seeked with goToAndStop and captured as a PNG screenshot, piped into FFmpeg with the same x264 settings as the
// engine's renders. Prints the wall time in seconds.
// Usage: node lottie-web.mjs <lottie.json> <width> <height> <seconds> <fps> <out.mp4>
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(new URL('../../build/node/', import.meta.url));
const { chromium } = require('playwright-core');
const lottiePath = require.resolve('lottie-web/build/player/lottie_svg.min.js');

const [file, width, height, seconds, fps, out] = process.argv.slice(2);
const w = Number(width);
const h = Number(height);
const frames = Math.round(Number(seconds) * Number(fps));
const animation = readFileSync(file, 'utf8');

const started = performance.now();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: w, height: h } });
await page.setContent(`<html><body style="margin:0;background:#000"><div id="a" style="width:${w}px;height:${h}px"></div></body></html>`);
await page.addScriptTag({ content: readFileSync(lottiePath, 'utf8') });
await page.evaluate((json) => {
  window.anim = window.lottie.loadAnimation({ container: document.getElementById('a'), renderer: 'svg', loop: false,
    autoplay: false, animationData: JSON.parse(json), rendererSettings: { preserveAspectRatio: 'xMidYMid meet' } });
}, animation);
const ffmpeg = spawn('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'image2pipe', '-framerate', fps,
  '-c:v', 'png', '-i', 'pipe:0', '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p', out],
{ stdio: ['pipe', 'inherit', 'inherit'] });
const element = await page.$('#a');
for (let i = 0; i < frames; i++) {
  await page.evaluate(([t, rate]) => {
    const frame = Math.min(window.anim.totalFrames - 1, t * window.anim.frameRate / rate);
    window.anim.goToAndStop(frame, true);
  }, [i, Number(fps)]);
  const png = await element.screenshot({ type: 'png' });
  if (!ffmpeg.stdin.write(png)) { await new Promise((resolve) => ffmpeg.stdin.once('drain', resolve)); }
}
ffmpeg.stdin.end();
await new Promise((resolve, reject) => ffmpeg.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg ${code}`)))));
await browser.close();
console.log(((performance.now() - started) / 1000).toFixed(2));
