// Templates: the vendor's own and the shared ones (GET /templates); one template's page with the editor of its
// definition (own templates: POST /templates saves a new version), a form generated from its fields driving a live
// preview still (POST /templates/{id}/preview, debounced) with a time slider, and a test render watched live.
import { api, current } from '../api.js';
import { apiPath, pageLink, safeUrl } from '../paths.js';
import { announce, attempt, badge, debounce, errorBox, field, fill, h, table, when } from '../ui.js';

const SAMPLE = {
  'use-case-id': 'hello-card',
  name: 'Hello card',
  description: '4 s: hello with the customer\'s name.',
  canvas: { width: 640, height: 360, fps: 25, background: '#1d3557' },
  fields: [{ name: 'name', required: true, 'max-length': 40 }],
  segments: [{ id: 'hello', duration: 4, background: { color: '#1d3557' },
    layers: [{ id: 'title', type: 'text', text: 'Hello {{name}}', size: 36, color: '#ffffff', x: 'center', y: 'center' }] }],
};

export function render(main, [id]) {
  if (id === 'new') { return editorPage(main, null); }
  if (id) { return detailPage(main, id); }
  return listPage(main);
}

function listPage(main) {
  const error = errorBox();
  const list = h('div', {}, h('p', {}, 'Loading…'));
  main.append(h('h1', {}, 'Templates'), h('p', {}, h('a', { class: 'button', href: pageLink('templates', 'new') }, 'New template')), error, list);
  const me = current().clientId;
  api('/templates').then((templates) => fill(list, table('Templates', [
    ['Name', (row) => h('a', { href: pageLink('templates', row['template-id']) }, row.name || row['use-case-id'])],
    ['Use case', (row) => row['use-case-id']],
    ['Version', (row) => row.version],
    ['Owner', (row) => (row['owner-client-id'] === me ? 'yours' : 'shared')],
    ['Required fields', (row) => (row['required-fields'] || []).join(', ')],
    ['Duration', (row) => (row['duration-seconds'] ? `${row['duration-seconds']} s` : '')],
  ], templates, 'No templates yet: make one.'))).catch((failure) => error.show(failure));
  main.append(gallery());
}

/**
 * The sample templates as the engine renders them: each sample's contact sheet (eight frames, /docs/gallery/), its
 * name and description, linked to its page when this vendor may use it.
 */
function gallery() {
  const section = h('section', { 'aria-labelledby': 'gallery-h', id: 'gallery' }, h('h2', { id: 'gallery-h' }, 'Sample gallery'));
  Promise.all([fetch('/docs/gallery/gallery.json').then((answer) => (answer.ok ? answer.json() : [])), api('/templates')])
    .then(([samples, templates]) => {
      const byUseCase = new Map(templates.map((t) => [t['use-case-id'], t['template-id']]));
      section.append(...samples.map((sample) => {
        const id = byUseCase.get(sample['use-case-id']);
        const title = id ? h('a', { href: pageLink('templates', id) }, sample.name) : sample.name;
        const tags = [`${sample.width}×${sample.height}`, `${sample['duration-seconds']} s`,
          sample.lottie ? 'Lottie motion' : null, sample.speaks ? 'speaks' : null].filter(Boolean).join(' · ');
        return h('figure', { class: 'sample', 'data-use-case': sample['use-case-id'] },
          h('img', { src: `/docs/gallery/${encodeURIComponent(sample.image)}`, alt: `Eight frames of the ${sample.name} sample`, loading: 'lazy' }),
          h('figcaption', {}, h('h3', {}, title), h('p', { class: 'muted' }, tags), h('p', {}, sample.description)));
      }));
    }).catch(() => section.append(h('p', { class: 'muted' }, 'The gallery is not available.')));
  return section;
}

/** Where a JSON.parse error is, as "line L, column C", from its message's position. */
function parsePlace(text, message) {
  if (/line \d+/.test(message)) { return message; }
  const match = /position (\d+)/.exec(message);
  const before = text.slice(0, match ? Number(match[1]) : text.length).split('\n');
  return `${message} (line ${before.length}, column ${before[before.length - 1].length + 1})`;
}

/** The definition editor; `template` null for a new one. Saving answers the saved template. */
function editor(template, onSaved) {
  const text = h('textarea', { id: 'definition', spellcheck: 'false', 'aria-describedby': 'definition-error' },
    JSON.stringify(template ? template.definition : SAMPLE, null, 2));
  const problem = h('div', { id: 'definition-error', class: 'field-error', role: 'alert' });
  const error = errorBox();
  const save = h('button', { type: 'submit', id: 'save-template' }, template ? 'Save as new version' : 'Save template');
  const check = () => {
    try {
      JSON.parse(text.value);
      problem.textContent = '';
      text.removeAttribute('aria-invalid');
      return true;
    } catch (failure) {
      problem.textContent = `Not valid JSON: ${parsePlace(text.value, failure.message)}`;
      text.setAttribute('aria-invalid', 'true');
      return false;
    }
  };
  text.addEventListener('input', debounce(check, 300));
  const form = h('form', { 'aria-labelledby': 'editor-h', onsubmit: (event) => {
    event.preventDefault();
    if (!check()) { text.focus(); return; }
    attempt(error, save, async () => {
      const saved = await api('/templates', { method: 'POST', body: JSON.parse(text.value) });
      announce(`Saved version ${saved.version}`);
      onSaved(saved);
    }).then(() => { if (!error.hidden) { problem.textContent = error.textContent; } });
  } }, h('h2', { id: 'editor-h' }, 'Definition'), field('Template JSON', text, 'docs/templates.md describes the definition.'),
  problem, error, save);
  return form;
}

function editorPage(main) {
  main.append(h('h1', {}, 'New template'), editor(null, (saved) => { location.hash = pageLink('templates', saved['template-id']); }));
}

function detailPage(main, id) {
  const error = errorBox();
  main.append(h('p', {}, h('a', { href: pageLink('templates') }, '← Templates')), error);
  let gone = false;
  const stops = [() => { gone = true; }];
  api(apiPath`/templates/${id}`).then((template) => {
    if (gone) { return; } // answered after the page was left: the next page owns main now
    const own = template['owner-client-id'] === current().clientId;
    main.append(h('h1', {}, template.name || template['use-case-id']),
      h('p', { class: 'muted' }, `${template['use-case-id']} · version ${template.version} · ${own ? 'yours' : 'shared'} · `
        + `${template.width}×${template.height} · ${template['duration-seconds']} s · ${when(template['created-at'])}`));
    const grid = h('div', { class: 'grid' });
    main.append(grid);
    const workbench = previewAndTest(template, stops, () => gone);
    grid.append(workbench);
    if (own) {
      grid.append(h('section', {}, editor(template, (saved) => {
        const target = pageLink('templates', saved['template-id']);
        // the same id again: no hashchange of its own, so the page is drawn again here (once, not twice)
        if (location.hash === target) { window.dispatchEvent(new HashChangeEvent('hashchange')); } else { location.hash = target; }
      })));
    }
  }).catch((failure) => error.show(failure));
  return () => stops.forEach((stop) => stop());
}

/** The form from the template's fields, the live preview with its time slider, and the test render. */
function previewAndTest(template, stops, left) {
  const inputs = (template.fields || []).map((spec) => {
    const input = h('input', { name: spec.name, 'data-field': spec.name, required: spec.required,
      maxlength: spec['max-length'], placeholder: spec.default || '' });
    if (spec.required && !spec.default) { input.value = spec.name === 'name' ? 'Ada' : spec.name; }
    return { spec, input };
  });
  const duration = Number(template['duration-seconds']) || 1;
  const time = h('input', { type: 'range', id: 'preview-time', min: 0, max: duration, step: 0.1,
    value: Math.min(duration / 2, 1).toFixed(1) });
  const timeLabel = h('output', { for: time.id }, `${time.value} s`);
  const image = h('img', { id: 'preview-image', alt: 'Preview still', hidden: true });
  const previewError = errorBox();
  const state = h('p', { class: 'muted', id: 'preview-state', 'aria-live': 'polite' }, '');
  const fields = () => Object.fromEntries(inputs.filter(({ input }) => input.value !== '').map(({ spec, input }) => [spec.name, input.value]));
  let drawn = 0;
  const draw = debounce(async () => {
    if (left()) { return; } // a preview still pending when the page is left is never asked for
    const ticket = ++drawn;
    state.textContent = 'Drawing…';
    try {
      const blob = await api(apiPath`/templates/${template['template-id']}/preview`, { method: 'POST', as: 'blob',
        body: { data: { personalization_fields: fields() }, time: Number(time.value) } });
      if (ticket !== drawn) { return; }
      previewError.show(null);
      if (image.src) { URL.revokeObjectURL(image.src); }
      image.src = URL.createObjectURL(blob);
      image.alt = `Preview at ${time.value} s with ${JSON.stringify(fields())}`;
      image.dataset.drawn = JSON.stringify({ fields: fields(), time: Number(time.value) });
      image.hidden = false;
      state.textContent = `Preview at ${time.value} s`;
    } catch (failure) {
      if (ticket === drawn) { previewError.show(failure); state.textContent = ''; }
    }
  }, 300);
  inputs.forEach(({ input }) => input.addEventListener('input', draw));
  time.addEventListener('input', () => { timeLabel.textContent = `${time.value} s`; draw(); });
  draw();

  // Play: the slider walks through the video and each frame is drawn by the server's engine as it arrives (one
  // request at a time, so a slow engine shows fewer frames, never a queue), to see the motion before rendering.
  const play = h('button', { type: 'button', id: 'preview-play', 'aria-pressed': 'false' }, 'Play');
  let playing = false;
  const frame = async (at) => {
    const ticket = ++drawn; // one counter with the debounced still: whichever was asked last is shown
    const blob = await api(apiPath`/templates/${template['template-id']}/preview`, { method: 'POST', as: 'blob',
      body: { data: { personalization_fields: fields() }, time: at } });
    if (ticket !== drawn) { return; }
    if (image.src) { URL.revokeObjectURL(image.src); }
    image.src = URL.createObjectURL(blob);
    image.alt = `Preview at ${at.toFixed(1)} s with ${JSON.stringify(fields())}`;
    image.dataset.drawn = JSON.stringify({ fields: fields(), time: at });
    image.hidden = false;
  };
  const stop = () => { playing = false; play.textContent = 'Play'; play.setAttribute('aria-pressed', 'false'); };
  stops.push(stop);
  play.addEventListener('click', async () => {
    if (playing) { stop(); return; }
    playing = true;
    play.textContent = 'Pause';
    play.setAttribute('aria-pressed', 'true');
    let at = Number(time.value) >= duration - 0.05 ? 0 : Number(time.value);
    const started = performance.now() - at * 1000;
    try {
      while (playing && !left() && at < duration) {
        time.value = at.toFixed(1);
        timeLabel.textContent = `${time.value} s`;
        await frame(at);
        // the next frame is the moment the video has reached in real time, at least a tenth of a second on
        at = Math.max(at + 0.1, (performance.now() - started) / 1000);
      }
      state.textContent = playing ? `Played to ${duration} s` : `Paused at ${time.value} s`;
    } catch (failure) {
      previewError.show(failure);
    }
    stop();
  });

  const testError = errorBox();
  const submit = h('button', { type: 'button', id: 'test-render' }, 'Render a test video');
  const watch = h('div', { id: 'test-watch' });
  submit.addEventListener('click', () => attempt(testError, submit, async () => {
    const accepted = await api('/media/demo', { method: 'POST', body: {
      'client-request-id': `console-${crypto.randomUUID()}`, 'customer-id': 'console', 'user-id': 'console',
      'use-case-id': template['use-case-id'], data: { personalization_fields: fields() } } });
    stops.push(follow(accepted['service-request-id'], watch));
  }));

  return h('section', { 'aria-labelledby': 'preview-h' }, h('h2', { id: 'preview-h' }, 'Preview'),
    h('form', { onsubmit: (event) => event.preventDefault() },
      inputs.map(({ spec, input }) => field(`${spec.name}${spec.required ? ' (required)' : ''}`, input,
        spec['max-length'] ? `at most ${spec['max-length']} characters` : undefined)),
      field('Time', time), timeLabel, play),
    h('div', { class: 'preview' }, image), state, previewError,
    h('h2', {}, 'Test render'), submit, testError, watch);
}

/**
 * Plays an HLS stream while it is being written: with hls.js served by the console itself wherever Media Source
 * Extensions exist (its worker off: the CSP allows no blob: scripts), else natively where the browser can (iOS).
 */
async function stream(video, url) {
  video.hidden = false;
  try {
    const { default: Hls } = await import('../../vendor/hls.light.min.mjs');
    if (Hls.isSupported()) {
      const hls = new Hls({ enableWorker: false });
      hls.loadSource(url);
      hls.attachMedia(video);
      video.dataset.player = 'hls.js';
      video.hls = hls;
      return;
    }
  } catch {
    // no hls.js here: the browser's own player, if it has one
  }
  if (video.canPlayType('application/vnd.apple.mpegurl')) {
    video.src = url;
    video.dataset.player = 'native';
  } else {
    video.hidden = true; // no player: the MP4 follows when the request ends
  }
}

/**
 * Follows one request's status (GET /status/{id}) until it ends: the status changing live, the stream while it
 * renders (where the browser plays HLS), then the MP4 with its thumbnail as poster and its captions.
 */
export function follow(requestId, target) {
  let stopped = false;
  const status = h('p', { id: 'test-status', 'aria-live': 'polite' }, 'Submitted');
  const video = h('video', { id: 'test-video', controls: true, playsinline: true, crossorigin: 'anonymous',
    preload: 'metadata', hidden: true, 'aria-label': 'The rendered video' });
  const details = h('div');
  const error = errorBox();
  fill(target, h('p', {}, 'Request ', h('a', { href: pageLink('requests', requestId) }, requestId)), status, video, details, error);
  let streaming = false;
  const ended = (answer) => {
    announce(`Request ${answer.status}`);
    if (answer.status !== 'SUCCESS') { return; }
    video.hls?.destroy(); // the stream's player lets go of the element before the MP4 takes it
    video.hls = undefined;
    video.poster = safeUrl(answer['image-url']) || '';
    video.replaceChildren();
    if (answer['captions-url']) {
      video.append(h('track', { kind: 'captions', src: answer['captions-url'], srclang: 'en', label: 'Captions', default: true }));
    }
    video.src = safeUrl(answer['video-url']) || '';
    video.hidden = false;
    // renditions: an object keyed by output name (docs/openapi.yaml, MediaStatus), one URL each
    const renditions = answer.renditions && typeof answer.renditions === 'object' ? Object.entries(answer.renditions) : [];
    fill(details, h('ul', {},
      h('li', {}, h('a', { href: answer['video-url'] }, 'MP4')),
      answer['image-url'] ? h('li', {}, h('a', { href: answer['image-url'] }, 'Thumbnail')) : '',
      answer['stream-url'] ? h('li', {}, h('a', { href: answer['stream-url'] }, 'HLS stream')) : '',
      answer['share-url'] ? h('li', {}, h('a', { href: answer['share-url'] }, 'Share page')) : '',
      renditions.map(([name, url]) => h('li', {}, h('a', { href: url }, `Rendition ${name}`)))));
  };
  const poll = async () => {
    if (stopped) { return; }
    let answer;
    try {
      answer = await api(apiPath`/status/${requestId}`);
    } catch (failure) {
      // only a failed status call is tried again; drawing an ended request never polls again
      error.show(failure);
      setTimeout(poll, 3000);
      return;
    }
    if (stopped) { return; }
    error.show(null);
    fill(status, badge(answer.status), ' ', answer.message || '');
    status.dataset.status = answer.status;
    if (answer.status === 'SUCCESS' || answer.status === 'FAILURE') {
      ended(answer);
      return;
    }
    if (safeUrl(answer['stream-url']) && !streaming) {
      streaming = true;
      stream(video, safeUrl(answer['stream-url']));
    }
    setTimeout(poll, 1000);
  };
  poll();
  return () => { stopped = true; };
}
