// Which requests are safe to send again after a 429 or 503 (the generated operations apply the credentials each
// operation's security asks for; this is the one thing they cannot know).

/**
 * POSTs that are safe twice: a token request (issues another token), the realtime creates (idempotent by
 * client-request-id: the same id and body answer the same acceptance and create the request once), an upload URL
 * (nothing exists until the PUT) and a preview (draws a still, stores nothing).
 */
const IDEMPOTENT_POSTS = [/^\/auth\/token$/, /^\/media\/demo$/, /^\/video\/demo$/, /^\/media\/task\/uploads$/,
    /^\/templates\/[^/]+\/preview$/];

export function idempotent(method: string, path: string): boolean {
    switch (method.toUpperCase()) {
        case 'GET':
        case 'HEAD':
        case 'PUT':
        case 'DELETE':
        case 'OPTIONS':
            return true;
        case 'POST':
            return IDEMPOTENT_POSTS.some((pattern) => pattern.test(path));
        default:
            return false;
    }
}
