/**
 * One attempt of one item: the request for these body bytes, sent through n8n's request helper with
 * the credential (whose `authenticate` signs it), and what came back: the accepted answer or a
 * failure, with the quota the answer told, if any. Deciding whether to try again is the caller's
 * (triggerItem.ts); keeping within the quota, the gate's (sending/serviceGate.ts).
 */
import type { IHttpRequestOptions } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../../../credentials/common/credentialType';
import { SIGNATURE_HEADER, readSignatureHeader } from '../../../credentials/common/signature';
import type { Failure, RequestInfo } from '../answer/failure';
import { failureFromError, timeoutFailure } from '../answer/noAnswer';
import type { QuotaReading } from '../answer/rateLimitHeaders';
import { readQuota } from '../answer/rateLimitHeaders';
import type { RawResponse } from '../answer/response';
import { failureFromAnswer } from '../answer/serviceAnswer';
import { readAnswerBody } from './answerBody';
import { deadline } from './deadline';
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
		// The body as the HTTP client's stream: read up to a limit (answerBody.ts), never whole.
		encoding: 'stream',
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		// No `timeout`: the deadline covers connecting, headers and body alike, where the HTTP
		// client's would stop only idle waits (deadline.ts).
		skipSslCertificateValidation: execution.options.ignoreSsl,
	};
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
