// Every value the console puts into a path, API or page, goes through here (docs/console.md, "Paths"): a value from
// the URL fragment, a form or an API answer is always exactly one encoded segment, never a '/', '?', '#', '\' or a
// dot segment that the browser's URL parser would act on. api() refuses any path the parser would still rewrite.

/** One value as one path segment: percent-encoded, and a segment of dots alone encoded too ('..' is %2E%2E). */
export function segment(value) {
  const text = String(value ?? '');
  // encodeURIComponent leaves '.' as it is: a segment of dots only would be a dot segment ('.', '..') to the parser.
  return /^\.*$/.test(text) ? text.replace(/\./g, '%2E') : encodeURIComponent(text);
}

/**
 * An API path with its values encoded: apiPath`/media/task/cancel/${taskId}` is '/media/task/cancel/' plus one
 * segment, whatever taskId holds. The literal parts are the console's own; only the values are encoded.
 */
export function apiPath(strings, ...values) {
  return strings.reduce((path, part, index) => path + part + (index < values.length ? segment(values[index]) : ''), '');
}

/** A console page's link: pageLink('batch', taskId) is '#/batch/<taskId as one segment>'. */
export function pageLink(page, ...values) {
  return `#/${[page, ...values].map(segment).join('/')}`;
}

/** The page and its values from a location hash ('#/batch/<id>'): each segment decoded once, a malformed one kept. */
export function routeParts(hash) {
  return hash.replace(/^#\/?/, '').split('/').map((part) => {
    try {
      return decodeURIComponent(part);
    } catch {
      return part; // not valid percent-encoding: taken as it is (and encoded again if it reaches a path)
    }
  });
}

/**
 * Whether a path is one the browser sends as it is: made of non-empty segments, none a dot segment, nothing the URL
 * parser rewrites (a '\', a tab, a space, '%2e%2e'), no query or fragment, and on this origin.
 */
export function isPlainPath(path) {
  if (typeof path !== 'string' || !/^(\/[^/?#]+)+$/.test(path)) { return false; }
  const parsed = new URL(path, 'http://console.invalid');
  return parsed.origin === 'http://console.invalid' && parsed.pathname === path && !parsed.search && !parsed.hash;
}

/** A URL from an API answer (a video, a share page, a presigned file) as a link or a source: http(s) or blob only. */
export function safeUrl(value) {
  if (value === undefined || value === null || value === '') { return undefined; }
  try {
    const parsed = new URL(String(value), location.href);
    return ['http:', 'https:', 'blob:'].includes(parsed.protocol) ? String(value) : undefined;
  } catch {
    return undefined;
  }
}
