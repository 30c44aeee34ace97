// Sign in: a vendor with its client id and secret (POST /auth/token), or the operator with the admin token.
import { signInOperator, signInVendor } from '../api.js';
import { attempt, errorBox, field, h } from '../ui.js';

export function render(main, notice) {
  const vendorError = errorBox();
  const operatorError = errorBox();
  const clientId = h('input', { name: 'client_id', autocomplete: 'username', required: true, spellcheck: 'false' });
  const secret = h('input', { name: 'client_secret', type: 'password', autocomplete: 'current-password', required: true });
  const adminToken = h('input', { name: 'admin_token', type: 'password', autocomplete: 'off', required: true });
  const vendorButton = h('button', { type: 'submit' }, 'Sign in');
  const operatorButton = h('button', { type: 'submit' }, 'Sign in as operator');
  main.append(h('div', { class: 'signin' },
    h('h1', {}, 'Sign in'),
    notice ? h('p', { role: 'status' }, notice) : '',
    h('form', { id: 'vendor-sign-in', class: 'card', 'aria-labelledby': 'vendor-h', onsubmit: (event) => {
      event.preventDefault();
      attempt(vendorError, vendorButton, () => signInVendor(clientId.value.trim(), secret.value));
    } },
    h('h2', { id: 'vendor-h' }, 'Vendor'),
    field('Client id', clientId), field('Client secret', secret), vendorError, vendorButton),
    h('form', { id: 'operator-sign-in', class: 'card', 'aria-labelledby': 'operator-h', onsubmit: (event) => {
      event.preventDefault();
      attempt(operatorError, operatorButton, () => signInOperator(adminToken.value));
    } },
    h('h2', { id: 'operator-h' }, 'Operator'),
    field('Admin token', adminToken), operatorError, operatorButton),
    h('p', { class: 'muted' }, 'The token is kept in this tab\'s memory only: reloading the page or signing out forgets it.')));
  clientId.focus();
}
