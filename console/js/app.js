// The console's shell: sign-in gate, navigation (hash routes, so /console/ is the only page the gateway serves),
// and the page modules, each `render(main, params)` answering an optional clean-up function.
import { api, current, onSession, signOut } from './api.js';
import { pageLink, routeParts } from './paths.js';
import { fill, h } from './ui.js';
import * as signin from './pages/signin.js';
import * as home from './pages/home.js';
import * as templates from './pages/templates.js';
import * as requests from './pages/requests.js';
import * as batch from './pages/batch.js';
import * as webhooks from './pages/webhooks.js';
import * as tryon from './pages/tryon.js';
import * as campaigns from './pages/campaigns.js';
import * as usage from './pages/usage.js';
import * as operator from './pages/operator.js';

const VENDOR_PAGES = [
  ['home', 'Home', home], ['templates', 'Templates', templates], ['requests', 'Requests', requests],
  ['batch', 'Batch', batch], ['webhooks', 'Webhooks', webhooks], ['try-on', 'Try-on', tryon],
  ['campaigns', 'Campaigns', campaigns], ['usage', 'Usage', usage],
];
const OPERATOR_PAGES = [['operator', 'Operator', operator]];

const main = document.getElementById('main');
const nav = document.getElementById('nav');
let cleanup = null;
let notice = '';

function pages() {
  const session = current();
  return session ? (session.kind === 'operator' ? OPERATOR_PAGES : VENDOR_PAGES) : [];
}

function route() {
  if (typeof cleanup === 'function') { cleanup(); }
  cleanup = null;
  const session = current();
  const [name, ...rest] = routeParts(location.hash);
  document.getElementById('who').hidden = !session;
  nav.hidden = !session;
  if (!session) {
    document.title = 'Sign in · pmedia console';
    fill(main); // the signed-out vendor's page goes with the session
    cleanup = signin.render(main, notice);
    notice = '';
    return;
  }
  const available = pages();
  const found = available.find(([id]) => id === name) || available[0];
  showWho(session);
  fill(nav, h('ul', {}, available.map(([id, label]) => h('li', {}, h('a', {
    href: pageLink(id), 'aria-current': id === found[0] ? 'page' : false }, label)))));
  document.title = `${found[1]} · pmedia console`;
  fill(main);
  cleanup = found[2].render(main, rest);
}

/** The header's name: the operator, or the vendor's name (GET /account, once per sign-in); its client id in a tooltip. */
function showWho(session) {
  const who = document.getElementById('who-name');
  who.textContent = session.kind === 'operator' ? 'Operator' : (session.name || '');
  if (session.kind === 'vendor') { who.title = `Client id ${session.clientId}`; } else { who.removeAttribute('title'); }
}

onSession((session, reason) => {
  if (session?.kind === 'vendor' && session.name === undefined) {
    session.name = '';
    api('/account').then((account) => {
      session.name = String(account.name || '');
      if (current() === session) { showWho(session); }
    }).catch(() => {
      session.name = 'Vendor'; // the pages work without it; never a bare uuid
      if (current() === session) { showWho(session); }
    });
  }
  if (!session) {
    notice = reason || '';
    history.replaceState(null, '', '#/');
  } else if (!location.hash || location.hash === '#/') {
    history.replaceState(null, '', session.kind === 'operator' ? '#/operator' : '#/home');
  }
  route();
  main.focus();
});
document.getElementById('sign-out').addEventListener('click', () => signOut('Signed out.'));
window.addEventListener('hashchange', () => { route(); main.focus(); });
route();
