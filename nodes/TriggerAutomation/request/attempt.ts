/**
 * One attempt of one item: the request for these body bytes, sent through n8n's request helper with
 * the credential (whose `authenticate` signs it) within Options → Timeout, and what came back: the
 * accepted answer (its body read up to MAX_ANSWER_BYTES) or a failure, with the quota the answer
 * told, if any. Deciding whether to try again is the caller's (triggerItem.ts); keeping within the
 * quota, the limiter's (sending/limiter.ts).
 */
import type { IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../../../credentials/common/credentialType';
import { SIGNATURE_HEADER, readSignatureHeader } from '../../../credentials/common/signature';
import type { Failure, RequestInfo } from '../answer/failure';
import { failureFromError, timeoutFailure } from '../answer/noAnswer';
import type { QuotaReading } from '../answer/rateLimitHeaders';
import { readQuota } from '../answer/rateLimitHeaders';
import type { RawResponse } from '../answer/response';
import { MAX_ANSWER_BYTES } from '../answer/response';
import { failureFromAnswer } from '../answer/serviceAnswer';
import type { Execution } from './settings';

export type Attempt = (
	| { accepted: RawResponse; signedAt: number | undefined }
	| { failure: Failure }
) & {
	/** The quota the answer told (accepted or not); none without an answer. */
	quota?: QuotaReading;
};

/**
 * The `t` the credential signed with. n8n hands these very options to the credential's
 * `authenticate`, which adds the header, and gives the node nothing else back. Undefined when
 * nothing was signed (the credential refused, or n8n failed before calling it).
 */
function signedAt(request: IHttpRequestOptions): number | undefined {
	const header = request.headers?.[SIGNATURE_HEADER];
	return typeof header === 'string' ? readSignatureHeader(header).timestamp : undefined;
}

/** What a request for these body bytes is, before the credential signs it. */
export function requestInfo(execution: Execution, body: Buffer): RequestInfo {
	return {
		url: execution.target.url,
		automationId: execution.target.automationId,
		bodyBytes: body.length,
		timeoutMs: execution.options.timeoutMs,
	};
}

/**
 * The request for these body bytes, unsigned. Fresh for every attempt: the credential signs it
 * with a fresh timestamp. Content-Type and the redirect lock are the credential's (signRequest.ts):
 * it sets them on every request it signs, the HTTP Request node's too.
 */
export function buildRequest(execution: Execution, body: Buffer): IHttpRequestOptions {
	return {
		method: 'POST',
		url: execution.target.url,
		body,
		headers: { Accept: 'application/json, text/plain, */*' },
		// The body as the HTTP client's stream: read up to a limit (readAnswerBody), never whole.
		encoding: 'stream',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		// No `timeout`: the deadline covers connecting, headers and body alike, where the HTTP
		// client's would stop only idle waits (`deadline`).
		skipSslCertificateValidation: execution.options.ignoreSsl,
	};
}

/*
 * Options → Timeout as a deadline for the whole answer. n8n's request helper aborts a request with
 * the cancel signal of the context it is called on (the execution's Stop), set over any signal the
 * node passes; the context handed to it here gives one that also fires at the Timeout. The HTTP
 * client's own `timeout` only ends idle waits, and a body trickled slowly would keep the item
 * waiting without end.
 */
export interface Deadline {
	/** The node's context, whose cancel signal fires at Stop or once the Timeout has passed. */
	ctx: IExecuteFunctions;
	/** The timer alone: aborted means the Timeout passed (Stop does not abort it). */
	timer: AbortSignal;
}

/** The deadline of one request, starting now. */
export function deadline(ctx: IExecuteFunctions, timeoutMs: number): Deadline {
	const timer = AbortSignal.timeout(timeoutMs);
	const stop = ctx.getExecutionCancelSignal();
	// `any` adds no listener to the execution's signal: nothing of this request stays on it.
	const signal = stop ? AbortSignal.any([stop, timer]) : timer;
	return {
		ctx: Object.create(ctx, { getExecutionCancelSignal: { value: () => signal } }),
		timer,
	};
}

/*
 * The answer's body, kept up to MAX_ANSWER_BYTES. n8n's request helper hands the body over as the
 * HTTP client's stream (`encoding: 'stream'`), so the node reads it a chunk at a time and, past the
 * limit, stops reading and closes the connection: a faulty or hostile answer of hundreds of MB
 * costs this process about the limit, not the answer's size (figures: docs/reference.md, Output).
 */
export interface AnswerBody {
	/** At most MAX_ANSWER_BYTES: the whole body, or its first MAX_ANSWER_BYTES when `cut`. */
	body: Buffer;
	/** The body was longer: the node stopped reading it there. */
	cut: boolean;
}

/** What the HTTP client's response stream offers, without depending on Node's stream types. */
interface BodyStream extends AsyncIterable<unknown> {
	destroy(error?: Error): unknown;
}

function isStream(value: unknown): value is BodyStream {
	return (
		typeof value === 'object' &&
		value !== null &&
		Symbol.asyncIterator in value &&
		typeof (value as { destroy?: unknown }).destroy === 'function'
	);
}

function asBuffer(chunk: unknown): Buffer {
	if (Buffer.isBuffer(chunk)) return chunk;
	if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
	if (chunk instanceof ArrayBuffer) return Buffer.from(chunk);
	return Buffer.from(typeof chunk === 'string' ? chunk : '');
}

/** Buffers up to the limit; the rest marks the body cut. */
function bounded(body: Buffer): AnswerBody {
	return body.length > MAX_ANSWER_BYTES
		? { body: Buffer.from(body.subarray(0, MAX_ANSWER_BYTES)), cut: true }
		: { body, cut: false };
}

/**
 * Reads `raw` (the stream n8n returns, or a body already read) up to the limit. A stream that
 * fails midway (the connection reset, the request aborted at the Timeout) throws its error.
 */
export async function readAnswerBody(raw: unknown): Promise<AnswerBody> {
	if (!isStream(raw)) return bounded(asBuffer(raw));
	const chunks: Buffer[] = [];
	let length = 0;
	let cut = false;
	try {
		for await (const chunk of raw) {
			const buffer = asBuffer(chunk);
			const room = MAX_ANSWER_BYTES - length;
			if (buffer.length > room) {
				chunks.push(buffer.subarray(0, room));
				length += room;
				cut = true;
				break;
			}
			chunks.push(buffer);
			length += buffer.length;
		}
	} finally {
		// Leaving the loop early closes the stream already; an error leaves it to be closed here.
		raw.destroy();
	}
	return { body: Buffer.concat(chunks, length), cut };
}

export async function sendAttempt(execution: Execution, body: Buffer): Promise<Attempt> {
	const { ctx, target, options } = execution;
	const info = requestInfo(execution, body);
	const request = buildRequest(execution, body);
	const { ctx: requestCtx, timer } = deadline(ctx, options.timeoutMs);
	try {
		const raw = (await ctx.helpers.httpRequestWithAuthentication.call(
			requestCtx,
			CREDENTIAL_TYPE,
			request,
			// Already fetched for the URL: spares n8n fetching it again for every request.
			{ credentialsDecrypted: target.credential },
		)) as Omit<RawResponse, 'body'> & { body: unknown };
		const { body: kept, cut } = await readAnswerBody(raw.body);
		const answer: RawResponse = {
			statusCode: raw.statusCode,
			statusMessage: raw.statusMessage,
			headers: raw.headers,
			body: kept,
			...(cut ? { cut } : {}),
		};
		const signatureTimestamp = signedAt(request);
		const failure = failureFromAnswer(answer, { ...info, signatureTimestamp });
		const quota = readQuota(answer.headers, Date.now());
		const told = quota ? { quota } : {};
		return failure
			? { failure, ...told }
			: { accepted: answer, signedAt: signatureTimestamp, ...told };
	} catch (error) {
		const stopped = ctx.getExecutionCancelSignal()?.aborted === true;
		const timedOut = timer.aborted && !stopped;
		return { failure: timedOut ? timeoutFailure(info) : failureFromError(error, info) };
	}
}
