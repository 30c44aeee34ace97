// Every failure the SDK reports is a PmediaError: an error answer of the API (PmediaApiError, with the error body),
// a render or task that ended in failure, a wait that timed out, or a webhook that does not verify.
import type { MediaStatus, TaskStatus } from './generated/index.js';

export class PmediaError extends Error {
    constructor(message: string, options?: { cause?: unknown }) {
        super(message);
        this.name = 'PmediaError';
        if (options?.cause !== undefined) {
            (this as { cause?: unknown }).cause = options.cause;
        }
    }
}

/** The error body of every pmedia error answer (interface 2.11). */
export interface ErrorBody {
    error: boolean;
    message: string;
    code: string;
    timestamp: string;
}

/**
 * An error answer of the API: `code` (e.g. `NOT_FOUND`, `VALIDATION_ERROR`), the server's `message`, the HTTP
 * `status`, the whole `body`, and for 429 and 503 the `retryAfterSeconds` the server asked for.
 */
export class PmediaApiError extends PmediaError {
    readonly status: number;
    readonly code: string | undefined;
    readonly body: ErrorBody | undefined;
    readonly retryAfterSeconds: number | undefined;

    constructor(status: number, code: string | undefined, message: string, body?: ErrorBody, retryAfterSeconds?: number) {
        super(message);
        this.name = 'PmediaApiError';
        this.status = status;
        this.code = code;
        this.body = body;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    /** The typed error of an answer that is not 2xx (reads its body). */
    static async from(response: Response): Promise<PmediaApiError> {
        const text = await response.text().catch(() => '');
        const retryAfter = retryAfterSeconds(response.headers);
        try {
            const body = JSON.parse(text) as ErrorBody;
            if (body && typeof body.message === 'string') {
                return new PmediaApiError(response.status, body.code, body.message, body, retryAfter);
            }
        } catch {
            // Not the error body (a proxy's page): the status and the text are all there is.
        }
        return new PmediaApiError(response.status, undefined, `HTTP ${response.status}${text ? `: ${text}` : ''}`,
            undefined, retryAfter);
    }
}

/** A realtime render refused at acceptance or ended in FAILURE; `mediaStatus` is the last status read, if any. */
export class RenderFailedError extends PmediaError {
    constructor(message: string, readonly serviceRequestId: string | undefined, readonly mediaStatus?: MediaStatus) {
        super(message);
        this.name = 'RenderFailedError';
    }
}

/** A batch task that ended FAILED, with its status. */
export class TaskFailedError extends PmediaError {
    constructor(readonly taskStatus: TaskStatus) {
        super(`task ${taskStatus.taskId} FAILED: ${taskStatus.message}`);
        this.name = 'TaskFailedError';
    }
}

/** `Retry-After` in seconds (what pmedia sends); undefined when absent or an HTTP date. */
export function retryAfterSeconds(headers: Headers): number | undefined {
    const value = headers.get('Retry-After');
    if (value === null || !/^\s*\d+\s*$/.test(value)) {
        return undefined;
    }
    return Number(value);
}
