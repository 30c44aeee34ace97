// Try-on: a model image and a garment image (URLs), the request (POST /vton/request) followed until it ends, the
// result beside its inputs; the recent requests (GET /vton/requests).
import { all, api, current } from '../api.js';
import { attempt, badge, errorBox, field, fill, h, table, when } from '../ui.js';

export function render(main) {
  let stopped = false;
  const error = errorBox();
  const model = h('input', { type: 'url', id: 'model-image', required: true });
  const garment = h('input', { type: 'url', id: 'garment-image', required: true });
  const category = h('select', { id: 'category' }, ['tops', 'bottoms', 'one-pieces'].map((v) => h('option', { value: v }, v)));
  const submit = h('button', { type: 'submit' }, 'Try on');
  const result = h('div', { class: 'grid', id: 'tryon-result' });
  const recent = h('div');
  const follow = async (id) => {
    if (stopped) { return; }
    try {
      const status = await api(`/vton/status/${encodeURIComponent(id)}`);
      fill(result, h('figure', {}, h('img', { src: model.value, alt: 'Model' }), h('figcaption', {}, 'Model')),
        h('figure', {}, h('img', { src: garment.value, alt: 'Garment' }), h('figcaption', {}, 'Garment')),
        h('figure', {}, status['generated-output'] ? h('img', { src: status['generated-output'], alt: 'Try-on result' }) : '',
          h('figcaption', {}, badge(status.status), ' ', status.message || '')));
      if (status.status !== 'SUCCESS' && status.status !== 'FAILURE') { setTimeout(() => follow(id), 1500); }
    } catch (failure) { error.show(failure); }
  };
  main.append(h('h1', {}, 'Try-on'), h('section', {}, h('form', { 'aria-label': 'New try-on', onsubmit: (event) => {
    event.preventDefault();
    attempt(error, submit, async () => {
      const created = await api('/vton/request', { method: 'POST', body: { 'user-id': 'console', 'client-id': current().clientId,
        'usecase-id': 'console', 'model-image': model.value, 'garment-image': [garment.value], category: category.value } });
      follow(created['request-id']);
    });
  } }, field('Model image URL', model), field('Garment image URL', garment), field('Category', category), error, submit)), result,
  h('section', { 'aria-labelledby': 'recent-h' }, h('h2', { id: 'recent-h' }, 'Recent try-ons'), recent));
  all('/vton/requests', {}, 50).then((items) => fill(recent, table('Recent try-ons', [
    ['Created', (row) => when(row['created-at'])], ['Request', (row) => row['request-id']], ['Status', (row) => badge(row.status)],
    ['Message', (row) => row.message || '']], items, 'No try-ons yet.'))).catch((failure) => error.show(failure));
  return () => { stopped = true; };
}
