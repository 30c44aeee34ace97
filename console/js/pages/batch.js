// Batch: choose a CSV, upload it (POST /media/task/uploads, then PUT to the presigned URL), create the task, follow
// its progress (processed / total-count) with the projected finish and deadline, cancel it, download its output.
import { all, api, current } from '../api.js';
import { apiPath, pageLink, safeUrl } from '../paths.js';
import { announce, attempt, badge, errorBox, field, fill, h, table, when } from '../ui.js';

export function render(main, [taskId]) {
  const stops = [];
  const error = errorBox();
  const file = h('input', { type: 'file', id: 'batch-file', accept: '.csv,text/csv', required: true });
  const template = h('select', { id: 'batch-template', required: true });
  const campaign = h('input', { id: 'batch-campaign', required: true, value: `console-${new Date().toISOString().slice(0, 10)}` });
  const priority = h('input', { id: 'batch-priority', type: 'number', min: 0, max: 9, value: 1 });
  const minutes = h('input', { id: 'batch-minutes', type: 'number', min: 1, value: 30 });
  // empty: the task renders as its campaign does (now unless the campaign's schedule says on-view)
  const renderMode = h('select', { id: 'batch-render' }, h('option', { value: '' }, 'As the campaign says'),
    h('option', { value: 'now' }, 'Now: every row'), h('option', { value: 'on-view' }, 'On first view'));
  const start = h('button', { type: 'submit', id: 'batch-start' }, 'Upload and start');
  const progress = h('div', { id: 'batch-progress' });
  const tasks = h('div');
  api('/templates').then((found) => fill(template, found.map((t) => h('option', { value: t['template-id'] },
    `${t.name || t['use-case-id']} (v${t.version})`)))).catch((failure) => error.show(failure));

  const form = h('form', { 'aria-labelledby': 'new-h', onsubmit: (event) => {
    event.preventDefault();
    const chosen = file.files[0];
    if (!chosen) { error.show(new Error('Choose a CSV file.')); return; }
    attempt(error, start, async () => {
      const text = await chosen.text();
      const rows = text.split(/\r?\n/).filter((line) => line.trim() !== '').length - 1;
      const slot = await api('/media/task/uploads', { method: 'POST', body: { 'file-name': chosen.name } });
      const put = await fetch(slot['upload-url'], { method: 'PUT', body: chosen });
      if (!put.ok) { throw new Error(`the upload was refused by the store (HTTP ${put.status})`); }
      const created = await api('/media/task/create', { method: 'POST', body: {
        'client-id': current().clientId, 'campaign-id': campaign.value.trim(), 'template-id': template.value,
        'file-name': chosen.name, 'file-path': slot['file-path'], priority: Number(priority.value), 'row-count': rows,
        'expected-output-duration': Number(minutes.value), render: renderMode.value || undefined } });
      announce(created.message || 'Task created');
      history.replaceState(null, '', pageLink('batch', created['task-id']));
      stops.push(follow(created['task-id'], progress, refresh));
    });
  } }, h('h2', { id: 'new-h' }, 'New batch'), field('CSV file', file, 'One row per video; a header row naming the fields.'),
  h('div', { class: 'row' }, field('Template', template), field('Campaign id', campaign), field('Priority', priority),
    field('Deadline (minutes)', minutes), field('Render', renderMode)), error, start);

  const refresh = () => all('/media/tasks', {}, 50).then((items) => fill(tasks, table('Batch tasks', [
    ['Created', (row) => when(row['created-at'])],
    ['Task', (row) => h('a', { href: pageLink('batch', row['task-id']) }, row['file-name'] || row['task-id'])],
    ['Status', (row) => badge(row.status)],
    ['Progress', (row) => `${row.processed} / ${row['total-count']}`],
    ['Projected finish', (row) => when(row['projected-finish'])],
    ['Deadline', (row) => when(row['due-at'])],
  ], items, 'No batch tasks yet.'))).catch((failure) => error.show(failure));

  main.append(h('h1', {}, 'Batch'), h('section', {}, form), progress, h('section', { 'aria-labelledby': 'tasks-h' },
    h('h2', { id: 'tasks-h' }, 'Tasks'), tasks));
  refresh();
  if (taskId) { stops.push(follow(taskId, progress, refresh)); }
  return () => stops.forEach((stop) => stop());
}

/** Follows one task until it ends: progress bar, projected finish, cancel, download. */
function follow(taskId, target, refresh) {
  let stopped = false;
  const bar = h('progress', { id: 'task-progress', max: 1, value: 0, 'aria-labelledby': 'task-h' });
  const text = h('p', { id: 'task-text', 'aria-live': 'polite' });
  const error = errorBox();
  const cancel = h('button', { type: 'button', class: 'danger', id: 'task-cancel' }, 'Cancel task');
  const download = h('button', { type: 'button', id: 'task-download', hidden: true }, 'Download output');
  let fileUrl = null;
  cancel.addEventListener('click', () => attempt(error, cancel, async () => {
    await api(apiPath`/media/task/cancel/${taskId}`, { method: 'POST' });
    announce('Task cancelled');
  }));
  download.addEventListener('click', () => attempt(error, download, async () => {
    const response = await fetch(fileUrl);
    if (!response.ok) { throw new Error(`the output file could not be read (HTTP ${response.status})`); }
    const link = h('a', { href: URL.createObjectURL(await response.blob()), download: `${taskId}-output.csv`, hidden: true });
    document.body.append(link);
    link.click();
    setTimeout(() => { URL.revokeObjectURL(link.href); link.remove(); }, 1000);
  }));
  fill(target, h('section', { 'aria-labelledby': 'task-h' }, h('h2', { id: 'task-h' }, `Task ${taskId}`), bar, text, cancel, download, error));
  const poll = async () => {
    if (stopped) { return; }
    try {
      const status = await api(apiPath`/media/task/status/${taskId}`);
      const total = status['total-count'] || 0;
      bar.max = Math.max(total, 1);
      bar.value = status.processed || 0;
      const percent = total ? Math.round((100 * status.processed) / total) : 0;
      text.dataset.status = status.status;
      text.dataset.percent = String(percent);
      text.dataset.render = status.render || 'now';
      // a task rendered on view hands out links; its renders follow the viewers
      const onView = status.render === 'on-view'
        ? ` · ${status.links ?? 0} links, ${status.viewed ?? 0} viewed, ${status.rendered ?? 0} rendered, ${status['render-failed'] ?? 0} failed`
        : '';
      fill(text, badge(status.status), ` ${status.processed} of ${total} rows (${percent} %)${onView} · ${status.message || ''}`);
      const ended = status.status === 'COMPLETED' || status.status === 'FAILED';
      cancel.hidden = ended;
      if (ended) {
        fileUrl = safeUrl(status['file-url']);
        download.hidden = !fileUrl;
        announce(`Task ${status.status}`);
        refresh();
        return;
      }
      setTimeout(poll, 1000);
    } catch (failure) {
      error.show(failure);
      setTimeout(poll, 3000);
    }
  };
  poll();
  return () => { stopped = true; };
}
