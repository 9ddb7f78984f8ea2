/**
 * A request that got no answer → a Failure: n8n or the credential refused to send it, the
 * connection or TLS failed, or Options → Timeout passed. Only the error's code is read, or, for
 * n8n's own refusal, its message and description. What fails before the request is written
 * (refused, DNS, TLS) created no run; what fails after may have.
 */
import { TriggerError } from '../../../credentials/common/triggerError';
import { LABELS, inOptions } from '../description';
import type { Failure, FailureCode, RequestInfo } from './failure';
import { NOTHING_SENT, editorText } from './failure';

export const TLS_CODES = new Set([
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

/**
 * n8n's request machinery refuses a request before sending it with a UserError that says why and
 * what to do (a blocked address under SSRF protection, …). By the class's name: n8n's copy of
 * n8n-workflow need not be the one this package sees.
 */
function isN8nRefusal(error: object): error is { message: string; description?: unknown } {
	for (let proto = Object.getPrototypeOf(error); proto; proto = Object.getPrototypeOf(proto)) {
		if ((proto as { constructor?: { name?: string } }).constructor?.name === 'UserError')
			return true;
	}
	return false;
}

/** No complete answer within Options → Timeout (headers and body). */
export function timeoutFailure(request: RequestInfo): Failure {
	return {
		code: 'may_have_run',
		pushBack: {},
		message: `The service did not answer within ${request.timeoutMs} ms`,
		description: `Raise ${inOptions(LABELS.timeout)} if the service is slow.`,
	};
}

/** Nothing reached the service. */
function notSent(code: FailureCode, message: string, description: string): Failure {
	return { code, message, description };
}

/** The request may have been written before the connection failed. */
function mayHaveBeenSent(message: string): Failure {
	return { code: 'may_have_run', message };
}

/** A thrown error (before or instead of an answer) → Failure. */
export function failureFromError(error: unknown, request: RequestInfo): Failure {
	// The credential refused to sign (its message says why); nothing was sent.
	const refused = findInChain(error, (e) => (e instanceof TriggerError ? e : undefined));
	if (refused) return refused.failure;
	const n8nRefusal = findInChain(error, (e) => (isN8nRefusal(e) ? e : undefined));
	if (n8nRefusal) {
		const { message, description } = n8nRefusal;
		// n8n's own words, passed on: as plain text, like anything else this node did not write.
		const fix = typeof description === 'string' ? editorText(description) : '';
		return {
			code: 'n8n_refused',
			message,
			description: fix === '' ? NOTHING_SENT : `${fix} ${NOTHING_SENT}`,
		};
	}
	const code = findInChain(error, (e) => (typeof e.code === 'string' ? e.code : undefined)) ?? '';
	const host = (() => {
		try {
			return new URL(request.url).host;
		} catch {
			return request.url;
		}
	})();
	if (code === 'ECONNREFUSED') {
		return {
			...notSent(
				'connection_refused',
				`Could not connect to ${host}: connection refused`,
				'Check that the service is reachable from the machine running n8n and that the webhook URL (host and port) is right. Nothing accepted the connection, so no run was created.',
			),
			pushBack: {},
		};
	}
	if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
		return notSent(
			'host_not_found',
			`The host ${host} could not be found (DNS ${code})`,
			"Check the host name in the credential's webhook URL, and the DNS of the machine running n8n. The name is looked up before anything is sent, so no run was created.",
		);
	}
	if (code === 'EPROTO' || code.startsWith('ERR_SSL_')) {
		return notSent(
			'tls_failed',
			`No TLS connection to ${host} could be made (${code})`,
			"Check the scheme and port of the credential's webhook URL: most often the service does not speak https at this address. The TLS handshake failed, and it comes before the request is sent, so no run was created.",
		);
	}
	if (TLS_CODES.has(code)) {
		return notSent(
			'tls_failed',
			`The TLS certificate of ${host} is not trusted (${code})`,
			`Use a certificate the machine running n8n trusts, or turn on ${inOptions(LABELS.ignoreSsl)} if you accept the risk. ` +
				'The certificate is checked before the request is sent, so no run was created.',
		);
	}
	if (code === 'ECONNABORTED' || code === 'ETIMEDOUT' || code === 'ESOCKETTIMEDOUT') {
		return timeoutFailure(request);
	}
	// ERR_BAD_RESPONSE: the answer broke off midway (Node 24 reports that as ECONNRESET too).
	if (['ECONNRESET', 'EPIPE', 'ERR_SOCKET_CLOSED', 'ERR_BAD_RESPONSE'].includes(code)) {
		return mayHaveBeenSent(
			`The connection to ${host} was closed before the service's answer was complete (${code})`,
		);
	}
	return mayHaveBeenSent(`The request to ${host} failed${code ? ` (${code})` : ''}`);
}
