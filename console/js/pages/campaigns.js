// Campaigns: the schedules (GET /campaigns) on a timeline drawn here, with their status, how their tasks render and
// their batch tasks; a schedule set or changed (POST /campaigns/{id}/schedule), with its render (now or on first view).
import { all, api } from '../api.js';
import { apiPath, pageLink } from '../paths.js';
import { attempt, badge, errorBox, field, fill, h, table, when } from '../ui.js';

function timeline(items) {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  const times = items.flatMap((c) => [Date.parse(c.start_time), Date.parse(c.end_time)]).filter(Number.isFinite);
  const min = Math.min(...times, Date.now());
  const max = Math.max(...times, Date.now() + 1);
  const width = 600;
  const rowHeight = 22;
  svg.setAttribute('viewBox', `0 0 ${width} ${items.length * rowHeight + 10}`);
  svg.setAttribute('class', 'chart');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', `Campaign schedules: ${items.map((c) => `${c.campaign_id} ${c.status} from ${when(c.start_time)} to ${when(c.end_time)}`).join('; ')}`);
  const x = (t) => ((t - min) / (max - min)) * (width - 10) + 5;
  items.forEach((c, i) => {
    const rect = document.createElementNS(ns, 'rect');
    const start = x(Date.parse(c.start_time));
    Object.entries({ x: start, y: i * rowHeight + 5, width: Math.max(2, x(Date.parse(c.end_time)) - start), height: rowHeight - 8 })
      .forEach(([k, v]) => rect.setAttribute(k, v));
    rect.setAttribute('class', 'bar');
    svg.append(rect);
  });
  const now = document.createElementNS(ns, 'line');
  Object.entries({ x1: x(Date.now()), x2: x(Date.now()), y1: 0, y2: items.length * rowHeight + 10 }).forEach(([k, v]) => now.setAttribute(k, v));
  svg.append(now);
  return svg;
}

export function render(main) {
  const error = errorBox();
  const list = h('div');
  const id = h('input', { id: 'campaign-id', required: true });
  const start = h('input', { id: 'campaign-start', type: 'datetime-local', required: true });
  const end = h('input', { id: 'campaign-end', type: 'datetime-local', required: true });
  const render = h('select', { id: 'campaign-render' }, h('option', { value: 'now' }, 'Now: every row'),
    h('option', { value: 'on-view' }, 'On first view: links now, a video when opened'));
  const save = h('button', { type: 'submit' }, 'Save schedule');
  const load = () => Promise.all([all('/campaigns', {}, 100), all('/media/tasks', {}, 200)]).then(([campaigns, tasks]) => fill(list,
    campaigns.length ? timeline(campaigns) : '',
    table('Campaigns', [['Campaign', (row) => row.campaign_id], ['Status', (row) => badge(row.status)],
      ['Start', (row) => when(row.start_time)], ['End', (row) => when(row.end_time)],
      ['Render', (row) => row.render || 'now'],
      ['Batches', (row) => tasks.filter((t) => t['campaign-id'] === row.campaign_id)
        .map((t) => h('div', {}, h('a', { href: pageLink('batch', t['task-id']) }, t['file-name'] || t['task-id']), ' ', badge(t.status)))]],
    campaigns, 'No campaign schedules yet.'))).catch((failure) => error.show(failure));
  main.append(h('h1', {}, 'Campaigns'), error, h('section', {}, list),
    h('section', {}, h('form', { 'aria-labelledby': 'sched-h', onsubmit: (event) => {
      event.preventDefault();
      attempt(error, save, async () => {
        await api(apiPath`/campaigns/${id.value.trim()}/schedule`, { method: 'POST', body: {
          start_time: new Date(start.value).toISOString(), end_time: new Date(end.value).toISOString(),
          render: render.value } });
        load();
      });
    } }, h('h2', { id: 'sched-h' }, 'Schedule a campaign'), h('div', { class: 'row' }, field('Campaign id', id),
      field('Start', start), field('End', end), field('Render', render,
        'How its batch tasks that do not say render: every row at once, or each link when first opened.')), save)));
  load();
}
