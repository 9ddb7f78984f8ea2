/**
 * A local stand-in for the Automation Service's webhook endpoint (dev and test code, never in
 * dist). It applies the spec's rules — exact bytes, HMAC with the automation's secret, 5-minute
 * expiry — refuses a replayed signed request, checks the body shape, and records each accepted
 * trigger as a run. Its statuses and JSON bodies are its own choice: the spec does not define the
 * real service's responses, and the node does not depend on them.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { SIGNATURE_TOLERANCE_MS } from '../credentials/common/signature';
import type { QuotaSpec } from './quotaHeaders';
import { FixedWindowQuota, quotaLine } from './quotaHeaders';
import { TokenBucket } from './tokenBucket';
import type { VerificationCode } from './verifySignature';
import { VerificationError, receivedSignatureHeader, verifySignature } from './verifySignature';

/**
 * The signing secret of the automations of `npm run dev`'s simulator, and of `npm start -- --serve
 * --fixed-secret`'s: a local value that stands for a real one only on this machine, printed for the
 * user to copy, the same at every start so that a credential keeps working.
 */
export const DEV_SECRET = 'dev_simulator_signing_secret';

export interface SimulatedAutomation {
	id: string;
	secret: string;
}

export interface RunRecord {
	runId: string;
	automationId: string;
	receivedAt: string;
	message: string;
	context?: Record<string, unknown>;
	/** The signature timestamp of the request that created the run. */
	signedAt: string;
}

export interface SimulatorOptions {
	automations: SimulatedAutomation[];
	toleranceMs?: number;
	maxBodyBytes?: number;
	/** Clock used for expiry checks and the busy spell; injectable for tests. */
	now?: () => number;
	/** Calls `fn` once, `ms` from now, and returns what cancels it: the end of a busy spell. */
	after?: (ms: number, fn: () => void) => () => void;
	/**
	 * A rate limit, as a service applies one: beyond this many trigger requests per second (a
	 * token bucket holding one second's worth), 429 with Retry-After: 1 and no run.
	 */
	perSecond?: number;
	/**
	 * A busy spell: for this long from the first trigger request (not from the start, which comes
	 * well before anyone sends: n8n's own start, a credential to set up), every trigger request is
	 * answered 429 with Retry-After: 1 and creates no run. Then the rate limit, if any. The first
	 * trigger request after `busyQuietMs` without any starts the next spell: a person who changed
	 * an option after the first one meets a spell again, however long that took, while a node
	 * still re-sending at the end of a spell is accepted.
	 */
	busyForMs?: number;
	/** Default BUSY_QUIET_MS. */
	busyQuietMs?: number;
	/** Told when a busy spell begins and when it is over (dev/simulatorLog.ts prints it). */
	onBusySpell?: (spell: BusySpell) => void;
	/**
	 * A quota, as a gateway in front of a service keeps and tells one (dev/quotaHeaders.js): this
	 * many trigger requests per fixed window, told in the chosen headers on every answer to one;
	 * beyond it, 429 with Retry-After until the window ends, and no run. Counted first, before the
	 * busy spell and the rate limit, as a gateway in front would.
	 */
	quota?: QuotaSpec;
	/** Told of each answer but the run history's, as it is sent (dev/simulatorLog.ts prints it). */
	onAnswered?: (answer: SimulatorAnswer) => void;
}

interface Rejection {
	status: number;
	error: string;
	message: string;
	/** Why, in a few words, for the terminal: never the secret, the signature or the body. */
	reason: string;
	retryAfter?: string;
}

/**
 * How long trigger requests must pause before the next one starts another busy spell: longer than
 * a node's waits within a spell (Retry-After: 1), shorter than a person takes to change an option
 * and run again.
 */
export const BUSY_QUIET_MS = 10_000;

/** A busy spell beginning (it lasts `forMs`), or over (the next starts after `quietMs` of quiet). */
export type BusySpell = { kind: 'began'; forMs: number } | { kind: 'over'; quietMs: number };

/** What the simulator answered a request: a run it created, or a refusal and its reason. */
export type SimulatorAnswer =
	| { kind: 'run'; run: RunRecord }
	| { kind: 'refused'; status: number; reason: string; retryAfter?: string }
	/** A credential test's unsigned HEAD: its 405 tells the test the URL answers, and is no refusal. */
	| { kind: 'probe'; status: number };

/**
 * The failures a request may ask for in its body's `data.context.simulateFailure`, as a sandbox
 * offers test values: answered after the signature was verified, creating no run, so that an
 * example shows what the node does with each. The real service knows no such field.
 */
export const SIMULATED_FAILURES: Record<string, Rejection> = {
	rate_limited: {
		status: 429,
		error: 'rate_limited',
		message:
			'Simulated failure (simulateFailure: rate_limited): too many requests, retry after 1 s.',
		reason: 'simulated failure',
		retryAfter: '1',
	},
	signature_rejected: {
		status: 403,
		error: 'invalid_signature',
		message:
			'Simulated failure (simulateFailure: signature_rejected): the signature was valid, and refused as asked.',
		reason: 'simulated failure',
	},
	body_rejected: {
		status: 422,
		error: 'invalid_body',
		message:
			'Simulated failure (simulateFailure: body_rejected): the body was valid, and refused as asked.',
		reason: 'simulated failure',
	},
};

const SIGNATURE_STATUS: Record<VerificationCode, Omit<Rejection, 'message'>> = {
	missing: { status: 401, error: 'missing_signature', reason: 'no signature header' },
	malformed: { status: 400, error: 'malformed_signature', reason: 'malformed signature' },
	no_signature: { status: 400, error: 'malformed_signature', reason: 'no v1 signature' },
	// The HMAC is checked before the time: a wrong secret, or bytes changed after signing.
	mismatch: { status: 403, error: 'invalid_signature', reason: 'wrong secret or altered body' },
	expired: { status: 401, error: 'expired_signature', reason: 'expired signature' },
	future: { status: 401, error: 'expired_signature', reason: 'signed in the future' },
	bad_secret: { status: 500, error: 'server_misconfigured', reason: 'no secret to verify with' },
};

const WEBHOOK_PATH = /^\/webhooks\/cloud\/([^/?#]+)$/;
const RUNS_PATH = /^\/automations\/([^/?#]+)\/runs$/;

function send(res: ServerResponse, status: number, body: unknown): void {
	const text = JSON.stringify(body);
	res.writeHead(status, {
		'Content-Type': 'application/json; charset=utf-8',
		'Content-Length': Buffer.byteLength(text),
	});
	res.end(text);
}

/** A path segment as text; a malformed %-escape is kept as written (and matches no automation). */
function decodePathSegment(segment: string): string {
	try {
		return decodeURIComponent(segment);
	} catch {
		return segment;
	}
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export class AutomationServiceSimulator {
	private server?: Server;
	private readonly secrets = new Map<string, string>();
	private readonly history = new Map<string, RunRecord[]>();
	/** Signature header values already accepted, with their timestamps (replay protection). */
	private readonly seen = new Map<string, number>();
	private readonly toleranceMs: number;
	private readonly maxBodyBytes: number;
	private readonly now: () => number;
	baseUrl = '';
	/** Every request that reached the simulator, accepted or not. */
	requests = 0;
	/** Requests answered 429: in the busy spell, over the rate limit, or as a simulated failure. */
	tooMany = 0;
	private readonly bucket: TokenBucket | undefined;
	private readonly busyForMs: number | undefined;
	private readonly busyQuietMs: number;
	private readonly quota: FixedWindowQuota | undefined;
	/** When the trigger request came that began the last busy spell. */
	private busySince: number | undefined;
	/** When the last trigger request came, to tell a quiet while. */
	private lastTriggerAt: number | undefined;
	private cancelSpellEnd: (() => void) | undefined;
	private readonly onAnswered: (answer: SimulatorAnswer) => void;
	private readonly onBusySpell: (spell: BusySpell) => void;
	private readonly after: (ms: number, fn: () => void) => () => void;

	constructor(options: SimulatorOptions) {
		for (const { id, secret } of options.automations) this.secrets.set(id, secret);
		this.toleranceMs = options.toleranceMs ?? SIGNATURE_TOLERANCE_MS;
		this.maxBodyBytes = options.maxBodyBytes ?? 32 * 1024 * 1024;
		this.now = options.now ?? Date.now;
		this.bucket = options.perSecond === undefined ? undefined : new TokenBucket(options.perSecond);
		this.busyForMs = options.busyForMs;
		this.busyQuietMs = options.busyQuietMs ?? BUSY_QUIET_MS;
		this.onBusySpell = options.onBusySpell ?? (() => undefined);
		this.after =
			options.after ??
			((ms, fn) => {
				const timer = setTimeout(fn, ms).unref();
				return () => clearTimeout(timer);
			});
		this.quota = options.quota && new FixedWindowQuota(options.quota, this.now);
		this.onAnswered = options.onAnswered ?? (() => undefined);
	}

	async start(port = 0): Promise<string> {
		this.server = createServer((req, res) => this.handle(req, res));
		// A port already taken rejects here, rather than as an uncaught 'error' event.
		await new Promise<void>((ready, fail) => {
			this.server!.once('error', fail);
			this.server!.listen(port, '127.0.0.1', () => {
				this.server!.off('error', fail);
				ready();
			});
		});
		this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
		return this.baseUrl;
	}

	async stop(): Promise<void> {
		this.cancelSpellEnd?.();
		const server = this.server;
		if (!server) return;
		server.closeAllConnections();
		await new Promise<void>((done) => server.close(() => done()));
	}

	webhookUrl(automationId: string): string {
		return `${this.baseUrl}/webhooks/cloud/${automationId}`;
	}

	runs(automationId: string): RunRecord[] {
		return [...(this.history.get(automationId) ?? [])];
	}

	private handle(req: IncomingMessage, res: ServerResponse): void {
		this.requests++;
		const path = (req.url ?? '').split('?')[0];
		const runsMatch = RUNS_PATH.exec(path);
		if (req.method === 'GET' && runsMatch) {
			const id = decodePathSegment(runsMatch[1]);
			if (!this.secrets.has(id)) return this.refuse(res, this.unknown(id));
			return send(res, 200, { automationId: id, runs: this.runs(id) });
		}
		const match = WEBHOOK_PATH.exec(path);
		if (!match) {
			return this.refuse(res, {
				status: 404,
				error: 'not_found',
				message: `No endpoint at ${path}.`,
				reason: `no endpoint at ${path}`,
			});
		}
		if (req.method !== 'POST') {
			res.setHeader('Allow', 'POST');
			const rejection = {
				status: 405,
				error: 'method_not_allowed',
				message: 'Trigger with POST.',
				reason: `${req.method}, not POST`,
			};
			if (req.method !== 'HEAD') return this.refuse(res, rejection);
			// The credential test's probe: a 405 tells it the URL answers, so it is told as a probe.
			send(res, rejection.status, { error: rejection.error, message: rejection.message });
			return this.onAnswered({ kind: 'probe', status: rejection.status });
		}
		const quota = this.quota?.take();
		for (const [name, value] of Object.entries(quota?.headers ?? {})) res.setHeader(name, value);
		if (quota && !quota.admitted) {
			const retryAfter = quota.headers['Retry-After'];
			return this.refuse(res, {
				status: 429,
				error: 'quota_exceeded',
				message: `The quota is spent: retry after ${retryAfter} s.`,
				reason: 'quota spent',
				retryAfter,
			});
		}
		if (this.busy()) {
			return this.refuse(res, {
				status: 429,
				error: 'busy',
				message: 'The service is busy: retry after 1 s.',
				reason: 'busy spell',
				retryAfter: '1',
			});
		}
		if (this.bucket && !this.bucket.admit()) {
			return this.refuse(res, {
				status: 429,
				error: 'rate_limited',
				message: 'Too many requests: retry after 1 s.',
				reason: 'rate limit',
				retryAfter: '1',
			});
		}
		const chunks: Buffer[] = [];
		let size = 0;
		let tooLarge = false;
		req.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size > this.maxBodyBytes) tooLarge = true;
			else chunks.push(chunk);
		});
		req.on('end', () => {
			if (tooLarge) {
				return this.refuse(res, {
					status: 413,
					error: 'body_too_large',
					message: `The body has ${size} bytes; at most ${this.maxBodyBytes} are accepted.`,
					reason: `body of ${size} bytes`,
				});
			}
			const rejection = this.accept(match[1], req, Buffer.concat(chunks), res);
			if (rejection) this.refuse(res, rejection);
		});
	}

	/** Answers with a refusal, and tells of it. */
	private refuse(res: ServerResponse, rejection: Rejection): void {
		const { status, reason, retryAfter } = rejection;
		if (status === 429) this.tooMany++;
		if (retryAfter !== undefined) res.setHeader('Retry-After', retryAfter);
		send(res, status, { error: rejection.error, message: rejection.message });
		this.onAnswered({
			kind: 'refused',
			status,
			reason,
			...(retryAfter === undefined ? {} : { retryAfter }),
		});
	}

	/**
	 * Whether a trigger request arriving now falls in a busy spell: the first one begins one, and so
	 * does the first after a quiet while.
	 */
	private busy(): boolean {
		const forMs = this.busyForMs;
		if (forMs === undefined) return false;
		const now = this.now();
		const quiet = this.lastTriggerAt === undefined || now - this.lastTriggerAt >= this.busyQuietMs;
		this.lastTriggerAt = now;
		if (this.busySince !== undefined && now - this.busySince < forMs) return true;
		if (!quiet) return false;
		this.busySince = now;
		this.onBusySpell({ kind: 'began', forMs });
		this.cancelSpellEnd?.();
		this.cancelSpellEnd = this.after(forMs, () => {
			this.cancelSpellEnd = undefined;
			this.onBusySpell({ kind: 'over', quietMs: this.busyQuietMs });
		});
		return true;
	}

	private unknown(id: string): Rejection & { status: 404 } {
		return {
			status: 404,
			error: 'unknown_automation',
			message: `No automation with id "${id}".`,
			reason: `unknown automation "${id}"`,
		};
	}

	/** Checks one trigger request; records the run and answers, or returns why it is refused. */
	private accept(
		rawId: string,
		req: IncomingMessage,
		body: Buffer,
		res: ServerResponse,
	): Rejection | undefined {
		const id = decodePathSegment(rawId);
		const secret = this.secrets.get(id);
		if (secret === undefined) return this.unknown(id);
		const contentType = req.headers['content-type'] ?? '';
		if (!/^application\/json\s*(;|$)/i.test(contentType)) {
			return {
				status: 415,
				error: 'unsupported_media_type',
				message: `Content-Type must be application/json, got "${contentType}".`,
				reason: `Content-Type "${contentType}"`,
			};
		}
		const now = this.now();
		let timestamp: number;
		let signature: string;
		try {
			({ timestamp, signature } = verifySignature({
				secret,
				header: receivedSignatureHeader(req.headers),
				body,
				toleranceMs: this.toleranceMs,
				now,
			}));
		} catch (error) {
			if (!(error instanceof VerificationError)) throw error;
			return { ...SIGNATURE_STATUS[error.code], message: error.message };
		}
		// The same signed request, however its header is written (entry order, extra entries).
		const replayKey = `${id} ${timestamp} ${signature}`;
		this.forgetExpired(now);
		if (this.seen.has(replayKey)) {
			return {
				status: 409,
				error: 'replayed_signature',
				message: 'This signed request was already accepted. Sign each request anew.',
				reason: 'replayed signature',
			};
		}

		let parsed: unknown;
		try {
			parsed = JSON.parse(body.toString('utf8'));
		} catch (error) {
			return {
				status: 422,
				error: 'invalid_body',
				message: `The body is not JSON: ${(error as Error).message}`,
				reason: 'body not JSON',
			};
		}
		const data = isPlainObject(parsed) ? parsed.data : undefined;
		if (!isPlainObject(data)) {
			return {
				status: 422,
				error: 'invalid_body',
				message: 'The body must be {"data": {...}}.',
				reason: 'body not {"data": {…}}',
			};
		}
		if (typeof data.message !== 'string' || data.message.trim() === '') {
			return {
				status: 422,
				error: 'invalid_body',
				message: 'data.message must be a non-empty string.',
				reason: 'no data.message',
			};
		}
		if (data.context !== undefined && !isPlainObject(data.context)) {
			return {
				status: 422,
				error: 'invalid_body',
				message: 'data.context must be an object when present.',
				reason: 'data.context not an object',
			};
		}
		const simulate = isPlainObject(data.context) ? data.context.simulateFailure : undefined;
		if (simulate !== undefined) {
			const asked = String(simulate);
			return Object.hasOwn(SIMULATED_FAILURES, asked)
				? SIMULATED_FAILURES[asked]
				: {
						status: 422,
						error: 'invalid_body',
						message: `data.context.simulateFailure must be one of ${Object.keys(SIMULATED_FAILURES).join(', ')}, got ${JSON.stringify(simulate)}.`,
						reason: 'unknown simulateFailure',
					};
		}

		this.seen.set(replayKey, timestamp);
		const run: RunRecord = {
			runId: randomUUID(),
			automationId: id,
			receivedAt: new Date(now).toISOString(),
			message: data.message,
			...(data.context === undefined ? {} : { context: data.context }),
			signedAt: new Date(timestamp).toISOString(),
		};
		const runs = this.history.get(id) ?? [];
		runs.push(run);
		this.history.set(id, runs);
		send(res, 202, { runId: run.runId, automationId: id, status: 'accepted' });
		this.onAnswered({ kind: 'run', run });
		return undefined;
	}

	private forgetExpired(now: number): void {
		for (const [key, timestamp] of this.seen) {
			if (now - timestamp >= this.toleranceMs) this.seen.delete(key);
		}
	}
}

/**
 * The failures a user asked the simulator for: `--per-second`, `--busy` (in seconds) and `--quota`
 * with `--quota-headers`.
 */
export interface FailureFlags {
	perSecond?: number;
	busySeconds?: number;
	quota?: QuotaSpec;
}

/** The simulator's options for those failures. */
export function failureOptions(
	flags: FailureFlags,
): Pick<SimulatorOptions, 'perSecond' | 'busyForMs' | 'quota'> {
	return {
		...(flags.perSecond === undefined ? {} : { perSecond: flags.perSecond }),
		...(flags.busySeconds === undefined ? {} : { busyForMs: flags.busySeconds * 1000 }),
		...(flags.quota === undefined ? {} : { quota: flags.quota }),
	};
}

/**
 * What a simulator started with a busy spell or a rate limit does, for the user who asked: pairs
 * of a label and a sentence.
 */
export function failureLines(options: FailureFlags): Array<[string, string]> {
	const lines: Array<[string, string]> = [];
	if (options.busySeconds !== undefined) {
		const text = `every request answered 429 (Retry-After: 1) for ${options.busySeconds} s from the first one, and again from the first after ${BUSY_QUIET_MS / 1000} s without any`;
		lines.push(['Busy spell', text]);
	}
	if (options.perSecond !== undefined) {
		const after = options.busySeconds === undefined ? '' : ' after the spell';
		const text = `${options.perSecond} requests/s${after}; beyond it, 429 with Retry-After: 1`;
		lines.push(['Rate limit', text]);
	}
	if (options.quota !== undefined) lines.push(quotaLine(options.quota));
	return lines;
}
