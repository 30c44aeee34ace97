// Usage: what the vendor used, per day of a month (GET /usage?granularity=day): totals, a chart per kind (requests,
// output video seconds, render seconds) labelled with the day of the month, and a table with a row per day and a
// column per kind. The API counts by UTC day and does not include `to`: this month runs up to tomorrow (UTC).
import { api } from '../api.js';
import { barChart, dayLabel, errorBox, field, fill, h, monthSoFar, table, utcDay } from '../ui.js';

const outcome = (counts) => `${counts?.succeeded ?? 0} ok${counts?.failed ? ` · ${counts.failed} failed` : ''}`;
const seconds = (value) => `${Number(value || 0).toFixed(1)} s`;
function bytes(value) {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let amount = Number(value || 0);
  let unit = 0;
  while (amount >= 1000 && unit < units.length - 1) { amount /= 1000; unit += 1; }
  return `${unit ? amount.toFixed(1) : amount} ${units[unit]}`;
}

/** The kinds of use, each a table column (and a chart where `chart` says what is counted per day). */
const KINDS = [
  ['Requests', (m) => outcome(m.requests), { chart: 'Realtime requests per day', value: (m) => m.requests.succeeded + m.requests.failed, bad: (m) => m.requests.failed > 0 }],
  ['Renders', (m) => outcome(m.renders)],
  ['Video seconds', (m) => seconds(m['video-seconds']), { chart: 'Output video seconds per day', value: (m) => Number(m['video-seconds'] || 0) }],
  ['Render seconds', (m) => seconds(m['render-seconds']), { chart: 'Render seconds per day', value: (m) => Number(m['render-seconds'] || 0) }],
  ['Batch tasks', (m) => `${m['batch-tasks']?.completed ?? 0} done${m['batch-tasks']?.failed ? ` · ${m['batch-tasks'].failed} failed` : ''}`],
  ['Batch rows', (m) => String(m['batch-rows'] ?? 0)],
  ['Try-ons', (m) => outcome(m['try-ons'])],
  ['Stored', (m) => bytes(m['storage-bytes'])],
  ['Webhook attempts', (m) => `${m['webhook-deliveries']?.attempts ?? 0}${m['webhook-deliveries']?.failed ? ` · ${m['webhook-deliveries'].failed} failed` : ''}`],
];

/** [from, to) of a month 'YYYY-MM': this month ends tomorrow (UTC), a past one at the first of the next. */
function range(month) {
  const now = new Date();
  const thisMonth = utcDay(now).slice(0, 7);
  if (!month || month >= thisMonth) { return monthSoFar(now); }
  const [year, index] = month.split('-').map(Number);
  return { from: `${month}-01`, to: utcDay(new Date(Date.UTC(year, index, 1))) };
}

export function render(main) {
  const error = errorBox();
  const month = h('input', { type: 'month', id: 'usage-month', value: utcDay(new Date()).slice(0, 7) });
  const show = h('button', { type: 'submit' }, 'Show');
  const body = h('div', { id: 'usage-report' }, h('p', {}, 'Loading…'));
  let gone = false;
  const load = () => {
    error.show(null);
    const { from, to } = range(month.value);
    return api('/usage', { query: { from, to, granularity: 'day' } }).then((report) => {
      if (gone) { return; }
      const periods = report.periods || [];
      const charts = KINDS.filter(([, , spec]) => spec?.chart).map(([, , spec]) => h('figure', {},
        h('figcaption', {}, `${spec.chart} (UTC day of the month)`),
        barChart(spec.chart, periods.map((period) => ({ label: dayLabel(period), value: spec.value(period), bad: spec.bad?.(period) })))));
      fill(body,
        h('p', { class: 'muted' }, `${report.from} to ${report.to} (not included), counted by UTC day.`),
        h('h2', {}, 'Totals'),
        h('div', { class: 'stats' }, KINDS.map(([name, cell]) => h('div', { class: 'stat' }, h('b', {}, cell(report.totals || {})), name))),
        h('h2', {}, 'Per day'), h('div', { class: 'grid' }, charts),
        table('Usage per day', [['Day', (period) => period.start], ...KINDS.map(([name, cell]) => [name, cell])], periods, 'No days in this range.'));
    }).catch((failure) => { if (!gone) { error.show(failure); fill(body); } });
  };
  main.append(h('h1', {}, 'Usage'),
    h('form', { class: 'row', 'aria-label': 'Month', onsubmit: (event) => { event.preventDefault(); load(); } },
      field('Month', month), show),
    error, body);
  load();
  return () => { gone = true; };
}
