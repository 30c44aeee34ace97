// Operator (admin token): vendors (onboard, rotate the secret, revoke, allowed addresses), shared templates, fonts,
// every vendor's usage (GET /admin/usage) and the webhook dead letters with their replay (/admin/webhooks/dead-letters).
import { api } from '../api.js';
import { apiPath } from '../paths.js';
import { announce, attempt, errorBox, field, fill, flatten, h, monthSoFar, table, when } from '../ui.js';

function lines(value) {
  return value.split(/[\s,]+/).map((part) => part.trim()).filter(Boolean);
}

/** A generic table of objects: one column per key of the first (nested keys flattened). */
function generic(caption, items, empty) {
  const keys = items.length ? flatten(items[0]).map(([key]) => key).slice(0, 8) : [];
  return table(caption, keys.map((key) => [key, (row) => {
    const value = flatten(row).find(([k]) => k === key)?.[1];
    return Array.isArray(value) ? value.join(', ') : String(value ?? '');
  }]), items, empty);
}

export function render(main) {
  const error = errorBox();
  const vendors = h('div', { id: 'vendors' });
  const name = h('input', { id: 'vendor-name', required: true });
  const webhook = h('input', { id: 'vendor-webhook', type: 'url' });
  const ips = h('input', { id: 'vendor-ips' });
  const create = h('button', { type: 'submit', id: 'vendor-create' }, 'Onboard vendor');
  const secrets = h('div', { id: 'vendor-secrets', 'aria-live': 'polite' });
  const confirm = h('dialog', { 'aria-labelledby': 'confirm-h' });
  document.body.append(confirm);

  const ask = (question) => new Promise((resolve) => {
    fill(confirm, h('h2', { id: 'confirm-h' }, question), h('form', { method: 'dialog' },
      h('button', { value: 'yes', id: 'confirm-yes', class: 'danger' }, 'Yes'),
      h('button', { value: 'no', class: 'secondary', autofocus: true }, 'No')));
    confirm.addEventListener('close', () => resolve(confirm.returnValue === 'yes'), { once: true });
    confirm.showModal();
  });
  const showSecrets = (title, answer) => fill(secrets, h('div', { class: 'card', role: 'region', 'aria-label': title },
    h('h3', {}, title), h('p', {}, 'Shown only now: copy them to the vendor.'),
    h('dl', {}, Object.entries(answer).filter(([key]) => /secret|key|client-id/.test(key))
      .flatMap(([key, value]) => [h('dt', {}, key), h('dd', { class: 'secret', 'data-secret': key }, String(value))]))));

  const load = () => api('/admin/clients').then((clients) => fill(vendors, table('Vendors', [
    ['Name', (row) => row.name],
    ['Client id', (row) => h('code', {}, row['client-id'])],
    ['Allowed addresses', (row) => addresses(row)],
    ['Created', (row) => when(row['created-at'])],
    ['Actions', (row) => actions(row)],
  ], clients, 'No vendors yet.'))).catch((failure) => error.show(failure));

  function addresses(row) {
    const input = h('input', { 'aria-label': `Allowed addresses of ${row.name}`, value: (row['allowed-ips'] || []).join(', ') });
    const save = h('button', { type: 'button', class: 'secondary' }, 'Save');
    save.addEventListener('click', () => attempt(error, save, async () => {
      await api(apiPath`/admin/clients/${row['client-id']}`, { method: 'PATCH', body: { 'allowed-ips': lines(input.value) } });
      announce(`Allowed addresses of ${row.name} saved`);
    }));
    return h('div', {}, input, save);
  }

  function actions(row) {
    const rotate = h('button', { type: 'button', class: 'secondary' }, 'Rotate secret');
    const revoke = h('button', { type: 'button', class: 'danger', 'data-revoke': row['client-id'] }, 'Revoke');
    rotate.setAttribute('aria-label', `Rotate secret of ${row.name}`);
    revoke.setAttribute('aria-label', `Revoke ${row.name}`);
    rotate.addEventListener('click', () => attempt(error, rotate, async () => {
      showSecrets(`New secret of ${row.name}`, await api(apiPath`/admin/clients/${row['client-id']}/rotate-secret`, { method: 'POST' }));
    }));
    revoke.addEventListener('click', async () => {
      if (!(await ask(`Revoke ${row.name}? Its tokens and API key stop working within seconds.`))) { return; }
      await attempt(error, revoke, async () => {
        await api(apiPath`/admin/clients/${row['client-id']}`, { method: 'DELETE' });
        announce(`${row.name} revoked`);
        await load();
      });
    });
    return h('div', {}, rotate, revoke);
  }

  const shared = h('div');
  const fonts = h('div');
  const usage = h('div');
  const dead = h('div', { id: 'dead-letters' });
  const loadDead = () => api('/admin/webhooks/dead-letters', { query: { limit: 50 } })
    .then((page) => fill(dead, table('Dead letters', [
      ['Vendor', (row) => h('code', {}, row['client-id'])],
      ['Event', (row) => row.delivery.type],
      ['Subject', (row) => row.delivery.subject || ''],
      ['Attempts', (row) => String(row.delivery['attempt-count'])],
      ['Last error', (row) => row.delivery['last-error'] || ''],
      ['Created', (row) => when(row.delivery['created-at'])],
      ['Replay', (row) => replay(row)],
    ], page.items || [], 'No dead letters.'))).catch((failure) => { const box = errorBox(); box.show(failure); fill(dead, box); });

  function replay(row) {
    const id = row.delivery['webhook-id'];
    const button = h('button', { type: 'button', class: 'secondary', 'data-replay': id, 'aria-label': `Replay ${id}` }, 'Replay');
    button.addEventListener('click', () => attempt(error, button, async () => {
      const answer = await api(apiPath`/admin/webhooks/dead-letters/${id}/replay`, { method: 'POST' });
      announce(`${id} replayed: ${answer.delivery.status}`);
      await loadDead();
    }));
    return button;
  }

  const section = (id, title, ...content) => h('section', { 'aria-labelledby': id }, h('h2', { id }, title), ...content);
  main.append(h('h1', {}, 'Operator'), error,
    section('vendors-h', 'Vendors', h('form', { 'aria-label': 'Onboard a vendor', onsubmit: (event) => {
      event.preventDefault();
      attempt(error, create, async () => {
        const body = { name: name.value.trim() };
        if (webhook.value.trim()) { body['webhook-url'] = webhook.value.trim(); }
        if (ips.value.trim()) { body['allowed-ips'] = lines(ips.value); }
        showSecrets(`${body.name} onboarded`, await api('/admin/clients', { method: 'POST', body }));
        [name, webhook, ips].forEach((input) => { input.value = ''; });
        await load();
      });
    } }, h('div', { class: 'row' }, field('Name', name), field('Webhook URL (optional)', webhook),
      field('Allowed addresses (optional)', ips, 'Addresses or CIDR ranges, separated by commas')), create), secrets, vendors),
    section('shared-h', 'Shared templates', shared), section('fonts-h', 'Fonts', fonts),
    section('usage-h', 'Usage of every vendor (this month)', usage),
    section('dead-h', 'Dead letters', h('p', { class: 'muted' }, 'Deliveries whose every attempt failed, newest first; replay one once its endpoint is fixed.'), dead));
  load();
  loadDead();
  const failed = (target) => (failure) => { const box = errorBox(); box.show(failure); fill(target, box); };
  api('/admin/templates').then((items) => fill(shared, generic('Shared templates', (Array.isArray(items) ? items : items.items || [])
    .filter((template) => !template['owner-client-id']), 'No shared templates.'))).catch(failed(shared));
  api('/admin/fonts').then((items) => fill(fonts, generic('Fonts', Array.isArray(items) ? items : items.items || [], 'No fonts registered.'))).catch(failed(fonts));
  api('/admin/usage', { query: monthSoFar() })
    .then((report) => fill(usage, table('Usage of every vendor', [['Vendor', (row) => row['client-id']],
      ['Totals', (row) => flatten(row.totals).map(([key, value]) => `${key} ${value}`).join(' · ')]], report.items || [], 'No usage yet.')))
    .catch(failed(usage));
  return () => confirm.remove();
}
