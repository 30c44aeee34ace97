// The local HTTP double of the API the unit tests talk to (node:http).
import { createServer } from 'node:http';

/** A server answering with `handle(req, body, seen)` -> [status, json, headers]; records every request in `seen`. */
export async function fakeApi(handle) {
    const seen = [];
    const server = createServer((req, res) => {
        let body = '';
        req.on('data', (chunk) => { body += chunk; });
        req.on('end', () => {
            seen.push({ method: req.method, path: req.url, headers: req.headers, body, at: Date.now() });
            const [status, json, headers = {}] = handle(req, body, seen);
            res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
            res.end(json === undefined ? '' : JSON.stringify(json));
        });
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${server.address().port}`;
    return { url, seen, close: () => new Promise((resolve) => { server.close(resolve); server.closeAllConnections(); }) };
}
