// Home: today's renders (GET /media/requests from midnight), failures with their reasons, p50/p95 time-to-video
// computed from the list, renders per hour, the last 30 days' views of the vendor's videos (GET /analytics/templates/
// {id} for each template it may render; a template without a shared video answers 404 and counts nothing), and this
// month's usage (GET /usage, up to tomorrow: its end is not included).
import { all, api } from '../api.js';
import { apiPath, pageLink } from '../paths.js';
import { barChart, dayLabel, errorBox, fill, flatten, h, monthSoFar, percentile, table, when } from '../ui.js';

export function render(main) {
  const error = errorBox();
  const today = h('section', { 'aria-labelledby': 'today-h' }, h('h2', { id: 'today-h' }, 'Today'), h('p', {}, 'Loading…'));
  const usage = h('section', { 'aria-labelledby': 'usage-h' }, h('h2', { id: 'usage-h' }, 'Usage this month'), h('p', {}, 'Loading…'));
  const views = h('section', { 'aria-labelledby': 'views-h' }, h('h2', { id: 'views-h' }, 'Views (30 days)'), h('p', {}, 'Loading…'));
  main.append(h('h1', {}, 'Home'), error, today, views, usage);

  const midnight = new Date();
  midnight.setHours(0, 0, 0, 0);
  all('/media/requests', { from: midnight.toISOString() }).then((items) => {
    const ended = items.filter((item) => item.status === 'SUCCESS' && item['ended-at']);
    const seconds = ended.map((item) => (Date.parse(item['ended-at']) - Date.parse(item['created-at'])) / 1000);
    const failures = items.filter((item) => item.status === 'FAILURE');
    const perHour = Array.from({ length: 24 }, (_, hour) => ({ label: String(hour), value: 0 }));
    items.forEach((item) => { perHour[new Date(item['created-at']).getHours()].value += 1; });
    const p50 = percentile(seconds, 50);
    const p95 = percentile(seconds, 95);
    fill(today, h('h2', { id: 'today-h' }, 'Today'),
      h('div', { class: 'stats' },
        h('div', { class: 'stat', id: 'stat-renders' }, h('b', {}, items.length), 'requests'),
        h('div', { class: 'stat' }, h('b', {}, ended.length), 'videos ready'),
        h('div', { class: 'stat' }, h('b', {}, failures.length), 'failures'),
        h('div', { class: 'stat' }, h('b', {}, p50 === null ? '–' : `${p50.toFixed(1)} s`), 'p50 time to video'),
        h('div', { class: 'stat' }, h('b', {}, p95 === null ? '–' : `${p95.toFixed(1)} s`), 'p95 time to video')),
      h('h3', {}, 'Requests per hour'), barChart('Requests per hour today', perHour),
      h('h3', {}, 'Failures'),
      table('Failures today', [
        ['When', (row) => when(row['created-at'])],
        ['Request', (row) => h('a', { href: pageLink('requests', row['service-request-id']) }, row['client-request-id'])],
        ['Template', (row) => row['use-case-id']],
        ['Reason', (row) => row.message]], failures, 'No failures today.'));
  }).catch((failure) => error.show(failure));

  api('/templates').then(async (listed) => {
    const templates = (Array.isArray(listed) ? listed : listed.items || listed.templates || []).slice(0, 50);
    const reports = await Promise.all(templates.map((template) => api(apiPath`/analytics/templates/${template['template-id']}`)
      .then((report) => ({ template, report })).catch(() => null)));
    const found = reports.filter(Boolean);
    const sum = (key) => found.reduce((total, { report }) => total + Number(report.totals?.[key] || 0), 0);
    const viewsTotal = sum('views');
    const completions = sum('completions');
    fill(views, h('h2', { id: 'views-h' }, 'Views (30 days)'),
      h('div', { class: 'stats' },
        h('div', { class: 'stat', id: 'stat-views' }, h('b', {}, viewsTotal), 'views'),
        h('div', { class: 'stat' }, h('b', {}, sum('unique-viewers')), 'unique viewers'),
        h('div', { class: 'stat' }, h('b', {}, viewsTotal ? `${Math.round((100 * completions) / viewsTotal)} %` : '–'), 'completed'),
        h('div', { class: 'stat' }, h('b', {}, sum('cta-clicks')), 'call-to-action clicks')),
      table('Views per template (30 days)', [
        ['Template', (row) => row.template['use-case-id']],
        ['Views', (row) => String(row.report.totals.views)],
        ['Completion rate', (row) => `${Math.round(100 * Number(row.report.totals['completion-rate'] || 0))} %`],
        ['CTA clicks', (row) => String(row.report.totals['cta-clicks'])]], found, 'No views yet: share a video (its share-url) to see them here.'));
  }).catch((failure) => { const box = errorBox(); box.show(failure); fill(views, h('h2', { id: 'views-h' }, 'Views (30 days)'), box); });

  api('/usage', { query: Object.assign(monthSoFar(), { granularity: 'day' }) }).then((report) => {
    const totals = flatten(report.totals);
    const videoSeconds = (report.periods || []).map((period) => ({ label: dayLabel(period), value: Number(period['video-seconds'] || 0) }));
    fill(usage, h('h2', { id: 'usage-h' }, 'Usage this month'),
      h('p', { class: 'muted' }, `${report.from} to ${report.to} (not included), by UTC day · `, h('a', { href: pageLink('usage') }, 'Usage per day')),
      videoSeconds.length ? [h('h3', {}, 'Output video seconds per day'), barChart('Output video seconds per day of the month', videoSeconds)] : '',
      table('Usage totals', [['Measure', (row) => row[0]], ['Total', (row) => String(row[1])]], totals, 'No usage yet.'));
  }).catch((failure) => { const box = errorBox(); box.show(failure); fill(usage, h('h2', { id: 'usage-h' }, 'Usage this month'), box); });
}
