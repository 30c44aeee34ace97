// Requests: the list (GET /media/requests) with its filters and cursor; one request's page with its status, its
// timeline (GET /media/requests/{id}/events: statuses, render jobs, share link) with its webhook deliveries, the
// attempts of each, its share link and its views.
import { api } from '../api.js';
import { apiPath, pageLink } from '../paths.js';
import { badge, errorBox, field, fill, h, table, when } from '../ui.js';

export function render(main, [id]) {
  return id ? detail(main, id) : list(main);
}

function list(main) {
  const error = errorBox();
  const status = h('select', { name: 'status' }, ['', 'PENDING', 'IN PROGRESS', 'SUCCESS', 'FAILURE']
    .map((value) => h('option', { value }, value || 'any')));
  const useCase = h('input', { name: 'use-case-id' });
  const from = h('input', { name: 'from', type: 'date' });
  const to = h('input', { name: 'to', type: 'date' });
  const rows = h('div');
  const more = h('button', { type: 'button', class: 'secondary', hidden: true }, 'More');
  let cursor = null;
  let items = [];
  const columns = [
    ['Created', (row) => when(row['created-at'])],
    ['Request', (row) => h('a', { href: pageLink('requests', row['service-request-id']) }, row['client-request-id'])],
    ['Template', (row) => `${row['use-case-id'] || ''} v${row['template-version'] || ''}`],
    ['Status', (row) => badge(row.status)],
    ['Message', (row) => row.message || ''],
    ['Render', (row) => (row['render-seconds'] ? `${Number(row['render-seconds']).toFixed(1)} s` : '')],
  ];
  const load = async (append) => {
    error.show(null);
    try {
      const query = { status: status.value, 'use-case-id': useCase.value.trim(), limit: 20, cursor: append ? cursor : undefined,
        from: from.value ? new Date(`${from.value}T00:00:00`).toISOString() : undefined,
        to: to.value ? new Date(`${to.value}T23:59:59.999`).toISOString() : undefined };
      const page = await api('/media/requests', { query });
      items = append ? items.concat(page.items) : page.items;
      cursor = page['next-cursor'];
      more.hidden = !cursor;
      fill(rows, table('Requests', columns, items, 'No requests match.'));
    } catch (failure) {
      error.show(failure);
    }
  };
  more.addEventListener('click', () => load(true));
  main.append(h('h1', {}, 'Requests'),
    h('form', { class: 'row', 'aria-label': 'Filters', onsubmit: (event) => { event.preventDefault(); load(false); } },
      field('Status', status), field('Use case', useCase), field('From', from), field('To', to),
      h('button', { type: 'submit' }, 'Filter')),
    error, rows, more);
  load(false);
}

function detail(main, id) {
  const error = errorBox();
  main.append(h('p', {}, h('a', { href: pageLink('requests') }, '← Requests')), h('h1', {}, `Request ${id}`), error);
  const statusPart = h('section', { 'aria-labelledby': 'st-h' }, h('h2', { id: 'st-h' }, 'Status'), h('p', {}, 'Loading…'));
  const timeline = h('section', { 'aria-labelledby': 'tl-h' }, h('h2', { id: 'tl-h' }, 'Timeline'));
  const hooks = h('section', { 'aria-labelledby': 'wh-h' }, h('h2', { id: 'wh-h' }, 'Webhook attempts'));
  const views = h('section', { 'aria-labelledby': 'vw-h' }, h('h2', { id: 'vw-h' }, 'Share link and views'));
  main.append(h('div', { class: 'grid' }, statusPart, timeline), hooks, views);

  Promise.all([api(apiPath`/status/${id}`), api('/webhooks/deliveries', { query: { 'service-request-id': id, limit: 100 } })
    .catch(() => ({ items: [] })), api(apiPath`/media/requests/${id}/events`).catch(() => ({ items: [] }))])
    .then(([status, deliveries, history]) => {
    fill(statusPart, h('h2', { id: 'st-h' }, 'Status'), h('p', {}, badge(status.status), ' ', status.message || ''),
      status['video-url'] ? h('video', { controls: true, src: status['video-url'], poster: status['image-url'] || undefined,
        preload: 'metadata', crossorigin: 'anonymous', 'aria-label': 'The video' }) : '');
    const events = history.items.map((event) => ({ at: event.at,
      text: `${event.kind === 'render-job' ? 'render job' : event.kind === 'share' ? 'share link' : 'status'}${event.status ? ` ${event.status}` : ''}: ${event.message || ''}` }));
    deliveries.items.forEach((delivery) => {
      events.push({ at: delivery['created-at'], text: `${delivery.type} event (${delivery['webhook-id']})` });
      (delivery.attempts || []).forEach((attempt) => events.push({ at: attempt['attempted-at'],
        text: `webhook attempt ${attempt.attempt}: ${attempt['status-code'] || attempt.error || ''}` }));
    });
    if (!history.items.length) { events.push({ at: null, text: `now ${status.status}` }); }
    events.sort((a, b) => (a.at && b.at ? Date.parse(a.at) - Date.parse(b.at) : (a.at ? -1 : 1)));
    fill(timeline, h('h2', { id: 'tl-h' }, 'Timeline'), h('ol', { class: 'timeline', id: 'request-timeline' },
      events.map((event) => h('li', {}, event.at ? h('time', { datetime: event.at }, when(event.at)) : '', ' ', event.text))));
    fill(hooks, h('h2', { id: 'wh-h' }, 'Webhook attempts'), table('Webhook attempts',
      [['Event', (row) => row.delivery.type], ['Attempt', (row) => row.attempt.attempt], ['When', (row) => when(row.attempt['attempted-at'])],
        ['Answer', (row) => row.attempt['status-code'] || row.attempt.error || ''], ['Latency', (row) => (row.attempt['latency-ms'] ?? '') + ' ms']],
      deliveries.items.flatMap((delivery) => (delivery.attempts || []).map((attempt) => ({ delivery, attempt }))), 'No webhook attempts.'));
    const share = status['share-url'];
    fill(views, h('h2', { id: 'vw-h' }, 'Share link and views'),
      share ? h('p', {}, h('a', { href: share }, share)) : h('p', { class: 'muted' }, 'No live share link.'));
    if (status.status === 'SUCCESS') {
      api(apiPath`/analytics/videos/${id}`).then((report) => views.append(table('Views', [['Measure', (row) => row[0]], ['Count', (row) => String(row[1])]],
        Object.entries(report.totals || {})))).catch((failure) => { const box = errorBox(); box.show(failure); views.append(box); });
    }
  }).catch((failure) => error.show(failure));
}
