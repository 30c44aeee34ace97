// Webhooks: the endpoint (GET/PUT /webhooks/endpoint: URL, event types), secret rotation, a test event, and the
// delivery log with each attempt, replay of one delivery and recovery of every failed one since a time.
import { api } from '../api.js';
import { apiPath } from '../paths.js';
import { announce, attempt, badge, errorBox, field, fill, h, plural, when } from '../ui.js';

export function render(main) {
  const error = errorBox();
  const url = h('input', { id: 'webhook-url', type: 'url', name: 'url', placeholder: 'https://hooks.example/pmedia' });
  const types = h('fieldset', {}, h('legend', {}, 'Event types'));
  const save = h('button', { type: 'submit' }, 'Save endpoint');
  const rotate = h('button', { type: 'button', class: 'secondary', id: 'rotate-secret' }, 'Rotate secret');
  const test = h('button', { type: 'button', class: 'secondary', id: 'send-test' }, 'Send a test event');
  const result = h('div', { id: 'webhook-result', 'aria-live': 'polite' });
  const state = h('p', { class: 'muted' });
  const show = (endpoint) => {
    url.value = endpoint.url || '';
    const chosen = new Set(endpoint['event-types'] || []);
    fill(types, h('legend', {}, 'Event types'), (endpoint['available-event-types'] || []).map((type) => h('label', { class: 'check' },
      h('input', { type: 'checkbox', name: 'event-type', value: type, checked: chosen.has(type) }), type)));
    state.textContent = [endpoint.disabled ? `Disabled: ${endpoint['disabled-reason'] || ''}` : 'Enabled',
      endpoint['previous-secret-valid-until'] ? `previous secret valid until ${when(endpoint['previous-secret-valid-until'])}` : '']
      .filter(Boolean).join(' · ');
  };
  api('/webhooks/endpoint').then(show).catch((failure) => error.show(failure));
  const form = h('form', { 'aria-labelledby': 'ep-h', onsubmit: (event) => {
    event.preventDefault();
    attempt(error, save, async () => {
      show(await api('/webhooks/endpoint', { method: 'PUT', body: { url: url.value.trim() || null,
        'event-types': [...types.querySelectorAll('input:checked')].map((input) => input.value) } }));
      announce('Endpoint saved');
    });
  } }, h('h2', { id: 'ep-h' }, 'Endpoint'), state, field('URL', url), types, error, save, rotate, test, result);
  rotate.addEventListener('click', () => attempt(error, rotate, async () => {
    const rotated = await api('/webhooks/endpoint/rotate-secret', { method: 'POST' });
    fill(result, h('p', {}, 'New signing secret (shown once; the previous one signs too until ',
      when(rotated['previous-valid-until']), '):'), h('p', { class: 'secret' }, rotated['webhook-secret']));
  }));
  test.addEventListener('click', () => attempt(error, test, async () => {
    const sent = await api('/webhooks/endpoint/test', { method: 'POST' });
    fill(result, h('p', {}, sent.delivered ? h('span', { class: 'ok' }, 'Delivered') : h('span', { class: 'error' }, 'Not delivered'),
      ` · ${sent['status-code'] || sent.error || ''} · ${sent['latency-ms'] ?? ''} ms · ${sent['webhook-id']}`));
    log.reload();
  }));

  const log = deliveryLog();
  main.append(h('h1', {}, 'Webhooks'), h('section', {}, form), log);
}

function deliveryLog() {
  const error = errorBox();
  const status = h('select', { id: 'delivery-status' }, ['', 'PENDING', 'DELIVERED', 'FAILED', 'EXHAUSTED']
    .map((value) => h('option', { value }, value || 'any')));
  const since = h('input', { id: 'recover-since', type: 'datetime-local' });
  const recover = h('button', { type: 'button', class: 'secondary', id: 'recover' }, 'Re-send failed since');
  const list = h('div', { id: 'deliveries' });
  const section = h('section', { 'aria-labelledby': 'dl-h' }, h('h2', { id: 'dl-h' }, 'Delivery log'),
    h('div', { class: 'row' }, field('Status', status), h('button', { type: 'button', class: 'secondary', onclick: () => section.reload() }, 'Refresh')),
    h('div', { class: 'row' }, field('Since', since), recover), error, list);
  section.reload = async () => {
    try {
      const page = await api('/webhooks/deliveries', { query: { status: status.value, limit: 50 } });
      fill(list, page.items.length ? page.items.map(delivery) : h('p', { class: 'muted' }, 'No deliveries.'));
    } catch (failure) {
      error.show(failure);
    }
  };
  status.addEventListener('change', () => section.reload());
  recover.addEventListener('click', () => attempt(error, recover, async () => {
    if (!since.value) { throw new Error('Choose the time to recover from.'); }
    const answer = await api('/webhooks/deliveries/recover', { method: 'POST', body: { since: new Date(since.value).toISOString() } });
    announce(`${plural(answer.recovering, 'delivery', 'deliveries')} sent again`);
    section.reload();
  }));

  function delivery(item) {
    const replayError = errorBox();
    const replay = h('button', { type: 'button', class: 'secondary', 'data-replay': item['webhook-id'] }, 'Replay');
    const card = h('article', { class: 'card', 'data-webhook-id': item['webhook-id'], 'data-attempts': item['attempt-count'] },
      h('h3', {}, badge(item.status), ' ', item.type, ' ', h('code', {}, item['webhook-id'])),
      h('p', { class: 'muted' }, `${when(item['created-at'])} · ${item['service-request-id'] || item.subject || ''} · ${plural(item['attempt-count'], 'attempt')}`),
      h('details', {}, h('summary', {}, 'Attempts'), h('ol', {}, (item.attempts || []).map((a) => h('li', { class: 'attempt' },
        `${when(a['attempted-at'])} · ${a.trigger || ''} · ${a['status-code'] || ''} ${a.error || ''} · ${a['latency-ms'] ?? ''} ms`,
        a['response-body'] ? h('pre', {}, a['response-body']) : '')))),
      item.status === 'PENDING' ? '' : replay, replayError);
    replay.addEventListener('click', () => attempt(replayError, replay, async () => {
      await api(apiPath`/webhooks/deliveries/${item['webhook-id']}/replay`, { method: 'POST' });
      announce('Delivery sent again');
      await section.reload();
      document.querySelector(`[data-webhook-id="${CSS.escape(item['webhook-id'])}"] details`)?.setAttribute('open', '');
    }));
    return card;
  }
  section.reload();
  return section;
}
