// lottie-web (its SVG renderer: its canvas renderer is wrong on subtract masks) plays each Lottie file of a JSON job
// in Chromium, fitted contain and centred in a white box of the job's size, and saves a PNG of each frame asked for.
// The player is lottie-web's light build (lottie_light.js: the SVG renderer without the expression engine) unless the
// job names another build (player: "lottie_svg.js" has expressions): the engine draws no expressions and warns so.
// Usage: node draw-lottie.mjs job.json
//   job: {width, height, player?, items: [{json: file, frames: [frame numbers from the file's in point], out: [png]}]}
import { readFileSync } from 'node:fs';
import { launchChromium, requireTool } from '../../../../system-tests/browser/chromium.mjs';

const job = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const player = requireTool.resolve(`lottie-web/build/player/${job.player || 'lottie_light.js'}`);
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: job.width, height: job.height }, deviceScaleFactor: 1 });
  for (const item of job.items) {
    await page.setContent(`<!doctype html><html><body style="margin:0;background:#fff">
      <div id="box" style="width:${job.width}px;height:${job.height}px;background:#fff;overflow:hidden"></div>
      </body></html>`);
    await page.addScriptTag({ path: player });
    const data = readFileSync(item.json, 'utf8');
    await page.evaluate((json) => new Promise((resolve, reject) => {
      const animation = window.lottie.loadAnimation({
        container: document.getElementById('box'), renderer: 'svg', loop: false, autoplay: false,
        animationData: JSON.parse(json), rendererSettings: { preserveAspectRatio: 'xMidYMid meet' },
      });
      window.animation = animation;
      animation.addEventListener('DOMLoaded', resolve);
      animation.addEventListener('data_failed', reject);
    }), data);
    await page.evaluate(() => document.fonts.ready);
    for (let i = 0; i < item.frames.length; i++) {
      await page.evaluate((frame) => window.animation.goToAndStop(frame, true), item.frames[i]);
      await page.screenshot({ path: item.out[i] });
    }
  }
} finally {
  await browser.close();
}
