// Which requests are safe to send again after a 429 or 503 (the generated operations apply the credentials each
// operation's security asks for; this is the one thing they cannot know). The list is not kept here: it is the
// document's `x-pmedia-idempotent` marks, generated into ./generated/operations.ts.
import { CONTRACT_OPERATIONS } from './generated/operations.js';

/** A path template's segments as a pattern: `{name}` is one segment. */
function pattern(template: string): RegExp {
    const escaped = template.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    return new RegExp(`^${escaped.join('[^/]+')}$`);
}

/** The POSTs (and any other method) the document marks idempotent: a token, the realtime creates, ... */
const MARKED = CONTRACT_OPERATIONS.filter((operation) => operation.markedIdempotent)
    .map((operation) => ({ method: operation.method.toUpperCase(), path: pattern(operation.path) }));

/**
 * Whether a request may be sent again without doing its work twice: GET, HEAD, PUT, DELETE and OPTIONS by HTTP, and
 * an operation docs/openapi.yaml marks `x-pmedia-idempotent: true` (`path` is the path below the base URL).
 */
export function idempotent(method: string, path: string): boolean {
    const verb = method.toUpperCase();
    switch (verb) {
        case 'GET':
        case 'HEAD':
        case 'PUT':
        case 'DELETE':
        case 'OPTIONS':
            return true;
        default:
            return MARKED.some((operation) => operation.method === verb && operation.path.test(path));
    }
}
