// Try-on: a model image and a garment image, each a URL or a file uploaded into the vendor's own namespace of the
// store (POST /media/task/uploads, a PUT to the presigned URL, then its s3:// path in the request); the request
// (POST /vton/request) followed until it ends, the result beside its inputs; the recent requests (GET /vton/requests).
import { all, api, current } from '../api.js';
import { apiPath } from '../paths.js';
import { attempt, badge, errorBox, field, fill, h, table, when } from '../ui.js';

/** A file name the upload slot takes: letters, digits, '.', '_' and '-', at most 200 characters. */
function plainName(name) {
  const plain = name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/\.{2,}/g, '.').slice(-200);
  return /^[A-Za-z0-9]/.test(plain) ? plain : `image-${plain}`.slice(0, 200);
}

/** The image as the request names it, and as the page shows it: an uploaded file's s3:// path, or the URL typed. */
async function image(url, file, what) {
  const chosen = file.files[0];
  if (!chosen) {
    if (!url.value.trim()) { throw new Error(`${what}: give a URL or choose a file`); }
    return { path: url.value.trim(), shown: url.value.trim() };
  }
  const slot = await api('/media/task/uploads', { method: 'POST', body: { 'file-name': plainName(chosen.name) } });
  const put = await fetch(slot['upload-url'], { method: 'PUT', body: chosen, headers: { 'Content-Type': chosen.type || 'application/octet-stream' } });
  if (!put.ok) { throw new Error(`${what}: the upload was refused by the store (HTTP ${put.status})`); }
  return { path: slot['file-path'], shown: URL.createObjectURL(chosen) };
}

export function render(main) {
  let stopped = false;
  const error = errorBox();
  const model = h('input', { type: 'url', id: 'model-image' });
  const modelFile = h('input', { type: 'file', id: 'model-file', accept: 'image/png,image/jpeg,image/webp' });
  const garment = h('input', { type: 'url', id: 'garment-image' });
  const garmentFile = h('input', { type: 'file', id: 'garment-file', accept: 'image/png,image/jpeg,image/webp' });
  const category = h('select', { id: 'category' }, ['tops', 'bottoms', 'one-pieces'].map((v) => h('option', { value: v }, v)));
  const submit = h('button', { type: 'submit' }, 'Try on');
  const result = h('div', { class: 'grid', id: 'tryon-result' });
  const recent = h('div');
  const follow = async (id, inputs) => {
    if (stopped) { return; }
    try {
      const status = await api(apiPath`/vton/status/${id}`);
      result.dataset.status = status.status;
      fill(result, h('figure', {}, h('img', { src: inputs.model, alt: 'Model' }), h('figcaption', {}, 'Model')),
        h('figure', {}, h('img', { src: inputs.garment, alt: 'Garment' }), h('figcaption', {}, 'Garment')),
        h('figure', {}, status['generated-output'] ? h('img', { src: status['generated-output'], alt: 'Try-on result', id: 'tryon-output' }) : '',
          h('figcaption', {}, badge(status.status), ' ', status.message || '')));
      if (status.status !== 'SUCCESS' && status.status !== 'FAILURE') { setTimeout(() => follow(id, inputs), 1500); }
    } catch (failure) { error.show(failure); }
  };
  main.append(h('h1', {}, 'Try-on'), h('section', {}, h('form', { 'aria-label': 'New try-on', onsubmit: (event) => {
    event.preventDefault();
    attempt(error, submit, async () => {
      const [modelImage, garmentImage] = [await image(model, modelFile, 'Model image'), await image(garment, garmentFile, 'Garment image')];
      const created = await api('/vton/request', { method: 'POST', body: { 'user-id': 'console', 'client-id': current().clientId,
        'usecase-id': 'console', 'model-image': modelImage.path, 'garment-image': [garmentImage.path], category: category.value } });
      result.dataset.request = created['request-id'];
      follow(created['request-id'], { model: modelImage.shown, garment: garmentImage.shown });
    });
  } }, h('div', { class: 'row' }, field('Model image URL', model), field('or a model image file', modelFile, 'PNG, JPEG or WebP; uploaded into your own storage')),
  h('div', { class: 'row' }, field('Garment image URL', garment), field('or a garment image file', garmentFile, 'PNG, JPEG or WebP; uploaded into your own storage')),
  field('Category', category), error, submit)), result,
  h('section', { 'aria-labelledby': 'recent-h' }, h('h2', { id: 'recent-h' }, 'Recent try-ons'), recent));
  all('/vton/requests', {}, 50).then((items) => fill(recent, table('Recent try-ons', [
    ['Created', (row) => when(row['created-at'])], ['Request', (row) => row['request-id']], ['Status', (row) => badge(row.status)],
    ['Message', (row) => row.message || '']], items, 'No try-ons yet.'))).catch((failure) => error.show(failure));
  return () => { stopped = true; };
}
