/**
 * Every way a trigger can fail → one message that says what happened and how to fix it → n8n's error
 * classes with the item index, and the item Continue On Fail puts out. Built from plain values only:
 * a raw HTTP client error carries the request headers (the signature), so it is read here for its
 * code and never passed on.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { SIGNATURE_TOLERANCE_MS } from '../../credentials/common/signature';
import { SigningError } from '../../credentials/common/signRequest';
import type { RawResponse } from './response';
import { headerValue } from './response';

/** A problem with the item's data or the node's parameters; the message says how to fix it. */
export class InputError extends Error {
	constructor(
		message: string,
		readonly description?: string,
	) {
		super(message);
		this.name = 'InputError';
	}
}

export interface Failure {
	/** input: found before sending (nothing was sent); network: no answer; http: a non-2xx answer. */
	kind: 'input' | 'network' | 'http';
	message: string;
	description?: string;
	/** HTTP status, for failures the service answered. */
	httpCode?: string;
	/**
	 * Whether sending again is both safe (the service provably did not accept the request, so no run
	 * was created) and useful (the cause can pass): only connection refused and 429.
	 */
	retryable: boolean;
	/** For 429: how long the service asked us to wait. */
	retryAfterMs?: number;
}

export interface RequestFacts {
	url: string;
	automationId: string;
	signatureTimestamp?: number;
	bodyBytes: number;
	timeoutMs: number;
}

const MAY_HAVE_RUN =
	"The run may or may not have been created: check the automation's run history before running this item again.";

function excerpt(response: RawResponse): string {
	const text = response.body.toString('utf8').trim();
	if (text === '') return '';
	return ` The service said: ${text.length > 500 ? `${text.slice(0, 500)}…` : text}`;
}

/** Retry-After as delay in ms: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
	if (value === undefined || value.trim() === '') return undefined;
	if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
	const date = Date.parse(value);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function clockComparison(response: RawResponse, signatureTimestamp: number | undefined): string {
	const dateHeader = headerValue(response.headers, 'date');
	const serverTime = dateHeader === undefined ? Number.NaN : Date.parse(dateHeader);
	if (signatureTimestamp === undefined || Number.isNaN(serverTime)) {
		return " Check that the credential's signing secret is the one shown in this automation's Webhook details, and that this machine's clock is correct.";
	}
	const skewMs = signatureTimestamp - serverTime;
	const seconds = Math.round(Math.abs(skewMs) / 1000);
	const clocks =
		` Server time ${new Date(serverTime).toISOString()}, signature timestamp ` +
		`${new Date(signatureTimestamp).toISOString()}:`;
	// The Date header has one-second resolution and the request takes time; allow a few seconds.
	if (Math.abs(skewMs) < 5_000) {
		return `${clocks} the clocks agree, so the signing secret is the likely cause. Copy it again from this automation's Webhook details into the credential.`;
	}
	const direction = skewMs > 0 ? 'ahead of' : 'behind';
	const verdict =
		Math.abs(skewMs) >= SIGNATURE_TOLERANCE_MS
			? 'more than the 5 minutes a signature is valid: synchronise the clock of the machine running n8n (NTP).'
			: 'within the 5 minutes a signature is valid, so check the signing secret too.';
	return `${clocks} this machine's clock is ${seconds} s ${direction} the service's, ${verdict}`;
}

/** A non-2xx answer → Failure; undefined when the service accepted the request. */
export function failureFromResponse(
	response: RawResponse,
	facts: RequestFacts,
	now: number = Date.now(),
): Failure | undefined {
	const status = response.statusCode;
	if (status >= 200 && status < 300) return undefined;
	const httpCode = String(status);
	const said = excerpt(response);
	if (status >= 300 && status < 400) {
		const location = headerValue(response.headers, 'location') ?? '(no Location header)';
		return {
			kind: 'http',
			httpCode,
			retryable: false,
			message: `The service answered with a redirect (${status}) to ${location}`,
			description:
				'Redirects are never followed: the signed request would be sent on to another address. ' +
				"If the automation's webhook URL has changed, copy the new one from its Webhook details into the credential.",
		};
	}
	if (status === 401 || status === 403) {
		return {
			kind: 'http',
			httpCode,
			retryable: false,
			message: `The service rejected the signature (${status})`,
			description: `${clockComparison(response, facts.signatureTimestamp).trim()}${said}`,
		};
	}
	if (status === 404) {
		return {
			kind: 'http',
			httpCode,
			retryable: false,
			message: `No automation found for id "${facts.automationId}" (404)`,
			description:
				"Check the automation id at the end of the credential's webhook URL. The automation may have been deleted, " +
				`or its trigger type is no longer Webhook: copy the URL again from its Webhook details.${said}`,
		};
	}
	if (status === 413) {
		return {
			kind: 'http',
			httpCode,
			retryable: false,
			message: `The request body is too large for the service (413): ${facts.bodyBytes} bytes`,
			description: `Send less context for this item, e.g. with Context → Selected Fields.${said}`,
		};
	}
	if (status === 429) {
		const retryAfter = headerValue(response.headers, 'retry-after');
		const retryAfterMs = parseRetryAfter(retryAfter, now);
		return {
			kind: 'http',
			httpCode,
			retryable: true,
			retryAfterMs,
			message: `Rate limited by the service (429)${retryAfter === undefined ? '' : `, retry after ${retryAfter.trim()}${/^\s*\d+\s*$/.test(retryAfter) ? ' s' : ''}`}`,
			description:
				'Send fewer requests at once: lower Options → Batching → Items per Batch or raise the Batch Interval; ' +
				`Options → Retries When Not Accepted re-sends rate-limited items.${said}`,
		};
	}
	if (status === 400 || status === 422) {
		return {
			kind: 'http',
			httpCode,
			retryable: false,
			message: `The service rejected the request body (${status})`,
			description: `Check the message and context of this item.${said}`,
		};
	}
	if (status >= 500) {
		return {
			kind: 'http',
			httpCode,
			retryable: false,
			message: `The service failed to handle the request (${status})`,
			description: `${MAY_HAVE_RUN}${said}`,
		};
	}
	return {
		kind: 'http',
		httpCode,
		retryable: false,
		message: `The service refused the request (${status})`,
		description: `Check the credential's webhook URL and this item's data.${said}`,
	};
}

const TLS_CODES = new Set([
	'DEPTH_ZERO_SELF_SIGNED_CERT',
	'SELF_SIGNED_CERT_IN_CHAIN',
	'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
	'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
	'CERT_HAS_EXPIRED',
	'CERT_NOT_YET_VALID',
	'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** Walks `cause` links (n8n wraps the client error) to the first that has a property. */
function findInChain<T>(
	error: unknown,
	pick: (e: Record<string, unknown>) => T | undefined,
): T | undefined {
	let current: unknown = error;
	for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
		const found = pick(current as Record<string, unknown>);
		if (found !== undefined) return found;
		current = (current as { cause?: unknown }).cause;
	}
	return undefined;
}

/** No complete answer within Options → Timeout (headers and body). */
export function timeoutFailure(facts: RequestFacts): Failure {
	return {
		kind: 'network',
		retryable: false,
		message: `The service did not answer within ${facts.timeoutMs} ms`,
		description: `${MAY_HAVE_RUN} Raise Options → Timeout if the service is slow.`,
	};
}

function network(message: string, description: string, retryable = false): Failure {
	return { kind: 'network', retryable, message, description };
}

/** A thrown error (before or instead of an answer) → Failure. */
export function failureFromError(error: unknown, facts: RequestFacts): Failure {
	// The credential refused to sign (its message says why); nothing was sent.
	const refused = findInChain(error, (e) => (e instanceof SigningError ? e : undefined));
	if (refused) return { kind: 'input', retryable: false, message: refused.message };
	const code = findInChain(error, (e) => (typeof e.code === 'string' ? e.code : undefined)) ?? '';
	const host = (() => {
		try {
			return new URL(facts.url).host;
		} catch {
			return facts.url;
		}
	})();
	if (code === 'ECONNREFUSED') {
		return network(
			`Could not connect to ${host}: connection refused`,
			'Nothing accepted the connection, so no run was created. Check that the service is reachable from the machine running n8n and that the webhook URL (host and port) is right.',
			true,
		);
	}
	if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
		return network(
			`The host ${host} could not be found (DNS ${code})`,
			"Check the host name in the credential's webhook URL, and the DNS of the machine running n8n.",
		);
	}
	if (code === 'EPROTO' || code.startsWith('ERR_SSL_')) {
		return network(
			`No TLS connection to ${host} could be made (${code})`,
			"The TLS handshake failed, and it comes before the request is sent, so no run was created. Most often the service does not speak https at this address: check the scheme and port of the credential's webhook URL.",
		);
	}
	if (TLS_CODES.has(code)) {
		return network(
			`The TLS certificate of ${host} is not trusted (${code})`,
			'Use a certificate the machine running n8n trusts, or turn on Options → Ignore SSL Issues (Insecure) if you accept the risk.',
		);
	}
	if (code === 'ECONNABORTED' || code === 'ETIMEDOUT' || code === 'ESOCKETTIMEDOUT') {
		return timeoutFailure(facts);
	}
	// ERR_BAD_RESPONSE: the answer broke off midway (Node 24 reports that as ECONNRESET too).
	if (['ECONNRESET', 'EPIPE', 'ERR_SOCKET_CLOSED', 'ERR_BAD_RESPONSE'].includes(code)) {
		return network(
			`The connection to ${host} was closed before the service's answer was complete (${code})`,
			MAY_HAVE_RUN,
		);
	}
	return network(`The request to ${host} failed${code ? ` (${code})` : ''}`, MAY_HAVE_RUN);
}

// n8n's errors

/** A trigger that ended without an accepted answer, carrying what is known about why. */
export class ItemFailure extends Error {
	constructor(readonly failure: Failure) {
		super(failure.message);
	}
}

export function toNodeError(
	ctx: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	if (error instanceof ItemFailure) {
		const { kind, message, description, httpCode } = error.failure;
		if (kind === 'input') {
			return new NodeOperationError(ctx.getNode(), message, { description, itemIndex });
		}
		const apiError = new NodeApiError(
			ctx.getNode(),
			{ message, httpCode: httpCode ?? null } as JsonObject,
			{ message, description, httpCode, itemIndex },
		);
		// NodeApiError swaps a message that mentions a network error code (ECONNRESET, ENOTFOUND …)
		// for a generic one, some advising an immediate retry; ours says what happened to the run.
		apiError.message = message;
		return apiError;
	}
	if (error instanceof NodeOperationError) {
		error.context.itemIndex ??= itemIndex;
		return error;
	}
	if (error instanceof InputError) {
		return new NodeOperationError(ctx.getNode(), error.message, {
			description: error.description,
			itemIndex,
		});
	}
	// Expression errors and the like come from n8n itself and already say what is wrong.
	const message = error instanceof Error ? error.message : String(error);
	const description = (error as { description?: unknown } | undefined)?.description;
	return new NodeOperationError(ctx.getNode(), message, {
		description: typeof description === 'string' ? description : undefined,
		itemIndex,
	});
}

/**
 * The Continue On Fail item, shaped as n8n's engine recognises an error item (only the keys `error`
 * and `details`, so it is routed to the error output). No `error` property on the item: the engine
 * would replace the JSON with the message alone, losing how to fix it and the status code.
 */
export function errorItem(
	error: NodeApiError | NodeOperationError,
	itemIndex: number,
): INodeExecutionData {
	const details: IDataObject = { itemIndex };
	if (error.description) details.description = error.description;
	if (error instanceof NodeApiError && error.httpCode) details.httpCode = error.httpCode;
	return { json: { error: error.message, details }, pairedItem: { item: itemIndex } };
}
