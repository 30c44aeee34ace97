// The pmedia API for a vendor: the generated operations on one Configuration whose fetch adds retries and typed
// errors and whose credentials come from a token cache, plus the calls every integrator otherwise writes by hand.
import {
    AuthenticationApi,
    BatchMediaApi,
    CampaignsApi,
    Configuration,
    OperatorApi,
    RealtimeMediaApi,
    TemplatesApi,
    VirtualTryOnApi,
    WebhooksApi,
    type MediaRequest,
    type MediaStatus,
    type TaskCreateRequest,
    type TaskCreateResponse,
    type TaskStatus,
} from './generated/index.js';
import { PmediaApiError, PmediaError, RenderFailedError, TaskFailedError, retryAfterSeconds } from './errors.js';
import { idempotent } from './operations.js';

export interface PmediaClientOptions {
    /** The gateway, e.g. `https://api.pmedia.example`. */
    baseUrl: string;
    /** The client id and secret issued at onboarding: tokens are fetched, cached and refreshed with them. */
    clientId?: string;
    clientSecret?: string;
    /** The API key issued at onboarding: needed by the earlier realtime form, optional for GET /status. */
    apiKey?: string;
    /** The operator's admin token, for `operator` calls only (never a vendor's). */
    adminToken?: string;
    /** Retries of idempotent requests on 429 and 503 (default: 4 attempts, waits of at most 30 s); false: none. */
    retry?: RetryOptions | false;
    /** The fetch to build on (default: the global fetch of Node 18+ and browsers). */
    fetch?: typeof fetch;
}

export interface RetryOptions {
    maxAttempts?: number;
    /** A Retry-After longer than this is not waited for: the 429 or 503 reaches the caller at once. */
    maxWaitMs?: number;
    /** Told before each retry, e.g. to log it. */
    onRetry?: (event: RetryEvent) => void;
}

export interface RetryEvent {
    method: string;
    url: string;
    status: number;
    waitMs: number;
    attempt: number;
}

/** How renderVideo and waitForTask wait: polling with a backoff, at most timeoutMs, telling each status read. */
export interface WaitOptions<T> {
    timeoutMs?: number;
    firstIntervalMs?: number;
    maxIntervalMs?: number;
    onProgress?: (status: T) => void;
}

/** How `call` sends and answers: query parameters (empty ones left out), a JSON body, the answer as JSON or a Blob. */
export interface CallOptions {
    query?: Record<string, string | number | boolean | null | undefined>;
    body?: unknown;
    as?: 'json' | 'blob';
}

/** What uploadBatchFile takes: a path (Node), or the content (a Blob or File, bytes). */
export type BatchFile = string | URL | Blob | ArrayBuffer | Uint8Array;

/**
 * The token, fetched on first use and again at 90 % of its lifetime (at most five minutes early), one fetch at a
 * time; a token the API refused (401) is dropped and fetched anew once.
 */
class TokenCache {
    private token: string | undefined;
    private refreshAt = 0;
    private pending: Promise<string> | undefined;

    constructor(private readonly fetchToken: () => Promise<{ accessToken: string; expiresIn: number }>) {}

    get(): Promise<string> {
        if (this.token !== undefined && Date.now() < this.refreshAt) {
            return Promise.resolve(this.token);
        }
        if (this.pending === undefined) {
            const asked = Date.now();
            this.pending = this.fetchToken().then((fresh) => {
                const lifetime = fresh.expiresIn * 1000;
                this.token = fresh.accessToken;
                this.refreshAt = asked + lifetime - Math.min(lifetime / 10, 5 * 60 * 1000);
                return fresh.accessToken;
            }).finally(() => { this.pending = undefined; });
        }
        return this.pending;
    }

    /** Whether `token` is the cached one (not, e.g., the operator's admin token). */
    holds(token: string): boolean {
        return this.token === token;
    }

    invalidate(refused: string): void {
        if (this.token === refused) {
            this.token = undefined;
        }
    }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class PmediaClient {
    readonly configuration: Configuration;
    readonly authentication: AuthenticationApi;
    readonly realtime: RealtimeMediaApi;
    readonly batch: BatchMediaApi;
    readonly templates: TemplatesApi;
    readonly tryOn: VirtualTryOnApi;
    readonly campaigns: CampaignsApi;
    readonly webhooks: WebhooksApi;
    /** The operator's calls; the client must be made with `adminToken`. */
    readonly operator: OperatorApi;

    private readonly base: URL;
    private readonly tokens: TokenCache | undefined;
    private readonly retry: Required<Omit<RetryOptions, 'onRetry'>> & Pick<RetryOptions, 'onRetry'>;
    private readonly baseFetch: typeof fetch;
    private readonly adminToken: string | undefined;

    constructor(options: PmediaClientOptions) {
        if (!options.baseUrl) {
            throw new Error('baseUrl is required, e.g. https://api.pmedia.example');
        }
        if ((options.clientId === undefined) !== (options.clientSecret === undefined)) {
            throw new Error('give both clientId and clientSecret');
        }
        const basePath = options.baseUrl.replace(/\/+$/, '');
        this.base = new URL(basePath);
        this.baseFetch = options.fetch ?? ((input, init) => fetch(input, init));
        this.adminToken = options.adminToken;
        this.retry = options.retry === false
            ? { maxAttempts: 1, maxWaitMs: 0, onRetry: undefined }
            : { maxAttempts: options.retry?.maxAttempts ?? 4, maxWaitMs: options.retry?.maxWaitMs ?? 30_000,
                onRetry: options.retry?.onRetry };
        this.configuration = new Configuration({
            basePath,
            fetchApi: (input, init) => this.send(input, init),
            // After the retries: an error answer of an operation is thrown as a PmediaApiError with its body.
            middleware: [{
                post: async ({ response }) => {
                    if (!response.ok) {
                        throw await PmediaApiError.from(response);
                    }
                    return undefined;
                },
            }],
            apiKey: options.apiKey,
            accessToken: async (scheme?: string) => {
                if (scheme === 'adminToken') {
                    return options.adminToken ?? '';
                }
                return this.tokens ? this.tokens.get() : '';
            },
        });
        this.authentication = new AuthenticationApi(this.configuration);
        const { clientId, clientSecret } = options;
        this.tokens = clientId === undefined || clientSecret === undefined ? undefined
            : new TokenCache(() => this.authentication.createToken({ credentials: { clientId, clientSecret } }));
        this.realtime = new RealtimeMediaApi(this.configuration);
        this.batch = new BatchMediaApi(this.configuration);
        this.templates = new TemplatesApi(this.configuration);
        this.tryOn = new VirtualTryOnApi(this.configuration);
        this.campaigns = new CampaignsApi(this.configuration);
        this.webhooks = new WebhooksApi(this.configuration);
        this.operator = new OperatorApi(this.configuration);
    }

    /** Any generated API class (one per tag of the contract, those added later too) on this client's settings. */
    api<T>(type: new (configuration: Configuration) => T): T {
        return new type(this.configuration);
    }

    /**
     * Any operation by its method and path, with this client's credentials, retries and typed errors, answering the body
     * as the API wrote it (JSON parsed, fields named as the contract spells them; an empty body is null; `as: 'blob'`
     * a Blob): for a caller that works in the contract's wire format (the console) or an operation newer than this SDK.
     * `path` is below the base URL, each value in it already one encoded segment; a path the URL parser would rewrite
     * (a dot or empty segment, a `\`, a query) is refused before anything is sent. The credential is the operator's
     * admin token on `/admin/...` (and on a client made with the admin token alone), the vendor's token elsewhere.
     *
     * @throws PmediaApiError for an error answer; PmediaError for a path that is refused
     */
    async call<T = unknown>(method: string, path: string, options: CallOptions = {}): Promise<T> {
        const target = /^(\/[^/]+)+$/.test(path) ? urlOf(this.base.href.replace(/\/+$/, '') + path) : undefined;
        if (target === undefined || this.apiPath(target.href) !== path || target.search || target.hash) {
            throw new PmediaError(`not sent: "${path}" is not a path of one API operation`);
        }
        Object.entries(options.query ?? {}).forEach(([name, value]) => {
            if (value !== undefined && value !== null && value !== '') {
                target.searchParams.set(name, String(value));
            }
        });
        const headers: Record<string, string> = { Accept: options.as === 'blob' ? '*/*' : 'application/json' };
        const token = await this.credentialFor(path);
        if (token) {
            headers.Authorization = `Bearer ${token}`;
        }
        if (options.body !== undefined) {
            headers['Content-Type'] = 'application/json';
        }
        const response = await this.send(target.href, { method: method.toUpperCase(), headers,
            body: options.body === undefined ? undefined : JSON.stringify(options.body) });
        if (!response.ok) {
            throw await PmediaApiError.from(response);
        }
        if (options.as === 'blob') {
            return await response.blob() as T;
        }
        const text = await response.text();
        if (!text) {
            return null as T;
        }
        try {
            return JSON.parse(text) as T;
        } catch {
            return text as T;
        }
    }

    /** The current access token (fetched, or refreshed shortly before it expires). */
    accessToken(): Promise<string> {
        if (!this.tokens) {
            throw new Error('no client credentials: make the client with clientId and clientSecret');
        }
        return this.tokens.get();
    }

    // --- realtime ---------------------------------------------------------------------------------------------

    /**
     * Creates a realtime video request and waits until it is rendered. Safe to call again with the same
     * clientRequestId: the API answers the same request (and a lost answer is retried that way).
     *
     * @returns the status at SUCCESS: videoUrl, imageUrl, streamUrl, renditions, shareUrl (where the API gives them)
     * @throws RenderFailedError when the request is refused or the render fails
     */
    async renderVideo(request: MediaRequest, options: WaitOptions<MediaStatus> = {}): Promise<MediaStatus> {
        const acceptance = await this.realtime.createMedia({ mediaRequest: request });
        if (acceptance.status !== 'SUCCESS') {
            throw new RenderFailedError(`request ${acceptance.clientRequestId} refused: ${acceptance.message}`,
                acceptance.serviceRequestId);
        }
        return this.waitForVideo(acceptance.serviceRequestId, options);
    }

    /** Polls GET /status/{transactionId} until SUCCESS (returned) or FAILURE (thrown). */
    waitForVideo(serviceRequestId: string, options: WaitOptions<MediaStatus> = {}): Promise<MediaStatus> {
        return this.poll(() => this.realtime.getMediaStatus({ transactionId: serviceRequestId }), (status) => {
            if (status.status === 'FAILURE') {
                throw new RenderFailedError(`request ${serviceRequestId} failed: ${status.message}`, serviceRequestId,
                    status);
            }
            return status.status === 'SUCCESS';
        }, { timeoutMs: 600_000, firstIntervalMs: 250, maxIntervalMs: 2_000, ...options }, `video ${serviceRequestId}`);
    }

    // --- batch ------------------------------------------------------------------------------------------------

    /**
     * Puts a batch input file (a UTF-8 CSV) into the vendor's namespace: a presigned URL from
     * POST /media/task/uploads, then a PUT of the file to it.
     *
     * @param file a path (Node only), or the content: a Blob or File, or bytes
     * @param fileName the name to keep (default: the path's or File's name, else input.csv)
     * @returns the file-path to give createTask
     */
    async uploadBatchFile(file: BatchFile, fileName?: string): Promise<string> {
        let body: Blob | Uint8Array | ArrayBuffer;
        let name = fileName;
        if (typeof file === 'string' || file instanceof URL) {
            const fs = 'node:fs/promises'; // (a variable: browser bundlers leave this Node-only branch alone)
            const { readFile } = await import(/* webpackIgnore: true */ /* @vite-ignore */ fs);
            body = new Uint8Array(await readFile(file));
            name ??= String(file).split(/[\\/]/).pop();
        } else {
            body = file;
            name ??= (file as { name?: string }).name;
        }
        const answer = await this.batch.createTaskUpload({ uploadRequest: { fileName: name || 'input.csv' } });
        const response = await this.send(answer.uploadUrl,
            { method: 'PUT', headers: { 'Content-Type': 'text/csv' }, body: body as BodyInit });
        if (!response.ok) {
            throw new PmediaError(`the upload of ${name} was refused: HTTP ${response.status} ${await response.text()}`);
        }
        return answer.filePath;
    }

    /** Creates a batch task (never retried: a second create would be a second task). */
    createTask(request: TaskCreateRequest): Promise<TaskCreateResponse> {
        return this.batch.createTask({ taskCreateRequest: request });
    }

    getTask(taskId: string): Promise<TaskStatus> {
        return this.batch.getTaskStatus({ taskId });
    }

    /** Waits until the task is COMPLETED (returned) or FAILED (thrown), telling onProgress each status read. */
    waitForTask(taskId: string, options: WaitOptions<TaskStatus> = {}): Promise<TaskStatus> {
        return this.poll(() => this.getTask(taskId), (status) => {
            if (status.status === 'FAILED') {
                throw new TaskFailedError(status);
            }
            return status.status === 'COMPLETED';
        }, { timeoutMs: 24 * 3600_000, firstIntervalMs: 1_000, maxIntervalMs: 10_000, ...options }, `task ${taskId}`);
    }

    /** A completed task's output file as text: one line per row with its status, message and video URL. */
    async readOutput(status: TaskStatus): Promise<string> {
        return new TextDecoder().decode(await this.download(outputUrl(status)));
    }

    /** Writes a completed task's output file to `path` (Node only). */
    async downloadOutput(status: TaskStatus, path: string | URL): Promise<void> {
        const fs = 'node:fs/promises';
        const { writeFile } = await import(/* webpackIgnore: true */ /* @vite-ignore */ fs);
        await writeFile(path, await this.download(outputUrl(status)));
    }

    /** The bytes at a URL the API handed out (videoUrl, fileUrl, a rendition). */
    async download(url: string): Promise<Uint8Array> {
        const response = await this.send(url, { method: 'GET' });
        if (!response.ok) {
            throw new PmediaError(`GET ${new URL(url).pathname}: HTTP ${response.status}`);
        }
        return new Uint8Array(await response.arrayBuffer());
    }

    // --- plumbing ---------------------------------------------------------------------------------------------

    private async poll<T>(read: () => Promise<T>, done: (status: T) => boolean, options: WaitOptions<T>,
        what: string): Promise<T> {
        const deadline = Date.now() + (options.timeoutMs ?? 600_000);
        let interval = options.firstIntervalMs ?? 250;
        for (;;) {
            const status = await read();
            options.onProgress?.(status);
            if (done(status)) {
                return status;
            }
            if (Date.now() + interval >= deadline) {
                throw new PmediaError(`${what} did not finish within ${options.timeoutMs} ms`);
            }
            await sleep(interval);
            interval = Math.min(interval * 1.5, options.maxIntervalMs ?? 2_000);
        }
    }

    /**
     * Every request of the SDK: idempotent ones again on 429 and 503 after Retry-After, and a 401 to a cached token
     * once more with a new token. Only requests for the API's origin carry credentials (the generated operations
     * add them); a presigned URL never sees one.
     */
    private async send(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
        const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
        const method = init.method ?? 'GET';
        const path = this.apiPath(url);
        const safe = idempotent(method, path ?? '');
        let renewed = false;
        for (let attempt = 1; ; attempt++) {
            const response = await this.baseFetch(url, init);
            const token = bearerOf(init.headers);
            if (response.status === 401 && token !== undefined && this.tokens?.holds(token) && !renewed) {
                renewed = true;
                attempt--;
                await response.body?.cancel();
                this.tokens!.invalidate(token);
                init = { ...init, headers: { ...headersOf(init.headers), Authorization: `Bearer ${await this.tokens!.get()}` } };
                continue;
            }
            if ((response.status === 429 || response.status === 503) && safe && attempt < this.retry.maxAttempts) {
                const waitMs = retryAfterSeconds(response.headers) !== undefined
                    ? retryAfterSeconds(response.headers)! * 1000
                    : 500 * 2 ** (attempt - 1) * (0.5 + Math.random() / 2);
                if (waitMs <= this.retry.maxWaitMs) {
                    this.retry.onRetry?.({ method, url, status: response.status, waitMs, attempt });
                    await response.body?.cancel();
                    await sleep(waitMs);
                    continue;
                }
            }
            return response;
        }
    }

    /** The bearer token `call` sends to `path`: the admin token on /admin/..., the vendor's token elsewhere. */
    private credentialFor(path: string): Promise<string | undefined> | string | undefined {
        const admin = path === '/admin' || path.startsWith('/admin/');
        if ((admin || !this.tokens) && this.adminToken !== undefined) {
            return this.adminToken;
        }
        return this.tokens?.get();
    }

    /** The path of `url` relative to the base URL; undefined for another origin (a presigned URL). */
    private apiPath(url: string): string | undefined {
        const target = new URL(url);
        const basePath = this.base.pathname.replace(/\/+$/, '');
        if (target.origin !== this.base.origin || !target.pathname.startsWith(basePath)) {
            return undefined;
        }
        return target.pathname.slice(basePath.length);
    }
}

/** `text` as a URL; undefined when it is none. */
function urlOf(text: string): URL | undefined {
    try {
        return new URL(text);
    } catch {
        return undefined;
    }
}

function outputUrl(status: TaskStatus): string {
    if (!status.fileUrl) {
        throw new PmediaError(`task ${status.taskId} has no output file yet (${status.status})`);
    }
    return status.fileUrl;
}

function headersOf(headers: HeadersInit | undefined): Record<string, string> {
    if (headers === undefined) {
        return {};
    }
    if (typeof Headers !== 'undefined' && headers instanceof Headers) {
        const copy: Record<string, string> = {};
        headers.forEach((value, name) => { copy[name] = value; });
        return copy;
    }
    if (Array.isArray(headers)) {
        return Object.fromEntries(headers);
    }
    return { ...(headers as Record<string, string>) };
}

function bearerOf(headers: HeadersInit | undefined): string | undefined {
    const entry = Object.entries(headersOf(headers)).find(([name]) => name.toLowerCase() === 'authorization');
    return entry && entry[1].startsWith('Bearer ') ? entry[1].slice('Bearer '.length) : undefined;
}
