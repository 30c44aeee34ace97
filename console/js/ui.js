// Small DOM helpers: elements built from data (text is always text, never parsed as HTML), errors, tables, charts.
import { safeUrl } from './paths.js';

/** Attributes that take a URL: a value that is not http(s), blob or relative (javascript:, data:) is left out. */
const URL_ATTRIBUTES = new Set(['href', 'src', 'poster']);

/** h('button', {type: 'button', onclick}, 'Save'): an element; attributes starting with "on" are listeners. */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  Object.entries(attributes || {}).forEach(([name, value]) => {
    if (value === undefined || value === null || value === false) { return; }
    if (URL_ATTRIBUTES.has(name) && safeUrl(value) === undefined) { return; }
    if (name.startsWith('on') && typeof value === 'function') {
      element.addEventListener(name.slice(2), value);
    } else if (name === 'dataset') {
      Object.assign(element.dataset, value);
    } else if (value === true) {
      element.setAttribute(name, '');
    } else {
      element.setAttribute(name, String(value));
    }
  });
  append(element, children);
  return element;
}

function append(element, children) {
  children.flat(Infinity).forEach((child) => {
    if (child === undefined || child === null || child === false) { return; }
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  });
}

/** Replaces an element's children. */
export function fill(element, ...children) {
  element.replaceChildren();
  append(element, children);
  return element;
}

let ids = 0;
/** A labelled control: label + input (or the given control), tied by id. */
export function field(label, control, hint) {
  if (!control.id) { control.id = `f${++ids}`; }
  const parts = [h('label', { for: control.id }, label), control];
  if (hint) {
    const hintId = `${control.id}-hint`;
    control.setAttribute('aria-describedby', hintId);
    parts.push(h('div', { id: hintId, class: 'muted' }, hint));
  }
  return h('div', {}, parts);
}

/** An area that shows an API error with its message (role=alert), or nothing. */
export function errorBox() {
  const box = h('div', { class: 'error', role: 'alert', hidden: true });
  box.show = (error) => {
    if (!error) { box.hidden = true; box.textContent = ''; return; }
    box.hidden = false;
    box.textContent = error.status ? `${error.message} (${error.status}${error.code ? ` ${error.code}` : ''})`
      : String(error.message || error);
  };
  return box;
}

/** Runs an action, showing its error in `box`; the button is disabled meanwhile. */
export async function attempt(box, button, action) {
  box.show(null);
  if (button) { button.disabled = true; }
  try {
    return await action();
  } catch (error) {
    box.show(error);
    return undefined;
  } finally {
    if (button) { button.disabled = false; }
  }
}

/** A table of rows; columns: [[heading, row => cell content]]. */
export function table(caption, columns, rows, empty = 'Nothing yet.') {
  if (!rows.length) { return h('p', { class: 'muted' }, empty); }
  // A wide table scrolls sideways: its wrapper takes the focus, so a keyboard can scroll it too (axe:
  // scrollable-region-focusable), and is named by the table's caption.
  return h('div', { class: 'table-wrap', tabindex: '0', role: 'region', 'aria-label': caption }, h('table', {},
    h('caption', { class: 'visually-hidden' }, caption),
    h('thead', {}, h('tr', {}, columns.map(([heading]) => h('th', { scope: 'col' }, heading)))),
    h('tbody', {}, rows.map((row) => h('tr', {}, columns.map(([, cell]) => h('td', {}, cell(row))))))));
}

export function badge(status) {
  return status ? h('span', { class: `badge ${String(status).replace(/\s+/g, '-')}` }, status) : '';
}

export function when(instant) {
  return instant ? new Date(instant).toLocaleString() : '';
}

/** Tells screen readers (the live region). */
export function announce(text) {
  const live = document.getElementById('live');
  if (live) { live.textContent = text; }
}

/** A bar chart in SVG, drawn here: bars [{label, value, bad}]. */
export function barChart(title, bars) {
  const ns = 'http://www.w3.org/2000/svg';
  const width = 600;
  const height = 160;
  const max = Math.max(1, ...bars.map((bar) => bar.value));
  const step = bars.length ? width / bars.length : width;
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', `0 0 ${width} ${height + 20}`);
  svg.setAttribute('class', 'chart');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', `${title}: ${bars.map((bar) => `${bar.label} ${bar.value}`).join(', ') || 'no data'}`);
  const base = document.createElementNS(ns, 'line');
  Object.entries({ x1: 0, x2: width, y1: height, y2: height }).forEach(([k, v]) => base.setAttribute(k, v));
  svg.append(base);
  bars.forEach((bar, index) => {
    const rect = document.createElementNS(ns, 'rect');
    const barHeight = (bar.value / max) * (height - 10);
    Object.entries({ x: index * step + 2, y: height - barHeight, width: Math.max(1, step - 4), height: barHeight })
      .forEach(([k, v]) => rect.setAttribute(k, v));
    rect.setAttribute('class', bar.bad ? 'bar bad' : 'bar');
    svg.append(rect);
    if (bars.length <= 31) {
      const text = document.createElementNS(ns, 'text');
      text.setAttribute('x', index * step + step / 2);
      text.setAttribute('y', height + 14);
      text.setAttribute('text-anchor', 'middle');
      text.textContent = bar.label;
      svg.append(text);
    }
  });
  return svg;
}

/** The p-th percentile (0..100) of numbers, nearest rank. */
export function percentile(values, p) {
  if (!values.length) { return null; }
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** Debounces a function by `ms`. */
export function debounce(fn, ms) {
  let timer = 0;
  return (...args) => { clearTimeout(timer); timer = setTimeout(() => fn(...args), ms); };
}

/** Flattens nested objects into [["a.b", value]] for display. */
export function flatten(object, prefix = '') {
  return Object.entries(object || {}).flatMap(([key, value]) => (value && typeof value === 'object' && !Array.isArray(value)
    ? flatten(value, `${prefix}${key}.`) : [[`${prefix}${key}`, value]]));
}

/** A date as the API's usage counts it: the UTC day, 'YYYY-MM-DD'. */
export function utcDay(date) {
  return date.toISOString().slice(0, 10);
}

/**
 * This month so far as GET /usage and GET /admin/usage take it: from the first of this UTC month to tomorrow (UTC),
 * because `to` is not included: asking up to today would leave today's work out.
 */
export function monthSoFar(now = new Date()) {
  return { from: utcDay(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1))),
    to: utcDay(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1))) };
}

/** A usage period's label on a daily chart: the day of the month of its `start` ('2026-11-07' is '7'). */
export function dayLabel(period) {
  return String(Number(String(period.start || '').slice(8, 10)) || '');
}

/** "1 attempt", "2 attempts". */
export function plural(count, one, many = `${one}s`) {
  return `${count} ${Number(count) === 1 ? one : many}`;
}
