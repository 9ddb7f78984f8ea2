/**
 * The service's answer → a Failure, or none when it accepted the request. The spec leaves statuses
 * and bodies open, so each status class gets the message a user can act on; its description says
 * what to do first, then why (the clocks, what the service said). Only a 5xx may have created a
 * run: any other answer says the service did not accept the request.
 */
import { SIGNATURE_TOLERANCE_MS } from '../../../credentials/common/signature';
import { inContext } from '../description';
import type { Failure, RequestInfo } from './failure';
import { editorText } from './failure';
import type { RawResponse } from './response';
import { headerValue } from './response';
import { answerSaid, isHtmlPage } from './serviceSaid';

// Retry-After as delay-seconds (the other form is an HTTP date); with a fraction too, as
// rate-limiter-flexible's README sends it (msBeforeNext / 1000).
const DELAY_SECONDS = /^\s*\d+(\.\d+)?\s*$/;

/** Retry-After as delay in ms: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
	if (value === undefined || value.trim() === '') return undefined;
	if (DELAY_SECONDS.test(value)) return Number(value) * 1000;
	const date = Date.parse(value);
	return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** How long a signature is valid, as the advice says it (credentials/common/signature.ts). */
const VALID_MINUTES = SIGNATURE_TOLERANCE_MS / 60_000;

const COPY_SECRET =
	"Copy the signing secret again from this automation's Webhook details into the credential";

/** A rejected signature: what to do, judged by the clocks when the answer has a Date header. */
function signatureAdvice(response: RawResponse, signatureTimestamp: number | undefined): string {
	const dateHeader = headerValue(response.headers, 'date');
	const serverTime = dateHeader === undefined ? Number.NaN : Date.parse(dateHeader);
	if (signatureTimestamp === undefined || Number.isNaN(serverTime)) {
		return "Check that the credential's signing secret is the one shown in this automation's Webhook details, and that this machine's clock is correct.";
	}
	const skewMs = signatureTimestamp - serverTime;
	const clocks =
		`(server time ${new Date(serverTime).toISOString()}, signature timestamp ` +
		`${new Date(signatureTimestamp).toISOString()}).`;
	// The Date header has one-second resolution and the request takes time; allow a few seconds.
	if (Math.abs(skewMs) < 5_000) {
		return `${COPY_SECRET}: the clocks agree, so the secret is the likely cause ${clocks}`;
	}
	const skew =
		`this machine's clock is ${Math.round(Math.abs(skewMs) / 1000)} s ` +
		`${skewMs > 0 ? 'ahead of' : 'behind'} the service's`;
	if (Math.abs(skewMs) >= SIGNATURE_TOLERANCE_MS) {
		return `Synchronise the clock of the machine running n8n (NTP): ${skew}, more than the ${VALID_MINUTES} minutes a signature is valid ${clocks}`;
	}
	return `${COPY_SECRET}: ${skew}, but within the ${VALID_MINUTES} minutes a signature is valid, so the secret is the likely cause ${clocks}`;
}

/** Where operators read what proxies and gateways answer when they limit, and what the node does. */
export const BEHIND_A_PROXY_DOCS =
	'https://github.com/automation-service/n8n-nodes-automation-service/blob/main/docs/behind-a-proxy.md';

/**
 * The docs page as a link the editor shows (its sanitizers keep `a` with `href` and `target`);
 * read as text (the item's JSON, logs), the address stays in sight.
 */
export const BEHIND_A_PROXY_LINK = `<a href="${BEHIND_A_PROXY_DOCS}" target="_blank">docs/behind-a-proxy.md</a>`;

const ANSWERED_BY_MAX_CHARACTERS = 80;

/** Envoy's rate limit filters mark their refusals with this header and send no `Server`. */
const ENVOY_RATE_LIMITED = 'x-envoy-ratelimited';

/** Who answered, as the answer names itself ("nginx/1.22.1"), and in which header. */
function answerer(response: RawResponse): { name: string; header: string } | undefined {
	for (const header of ['Server', 'Via']) {
		const value = editorText(headerValue(response.headers, header.toLowerCase()) ?? '');
		if (value !== '') {
			return { name: Array.from(value).slice(0, ANSWERED_BY_MAX_CHARACTERS).join(''), header };
		}
	}
	return headerValue(response.headers, ENVOY_RATE_LIMITED) === undefined
		? undefined
		: { name: 'Envoy', header: ENVOY_RATE_LIMITED };
}

/** Who answered, as the answer says: "nginx/1.22.1 (its Server header)"; undefined if it does not. */
export function answeredBy(response: RawResponse): string | undefined {
	const by = answerer(response);
	return by && `${by.name} (its ${by.header} header)`;
}

/**
 * A 503 without a Retry-After the node can read: the service may have failed after creating the
 * run, or a rate limiter in front of it refused the request (nginx's limit_req answers 503 by
 * default); nothing in the answer tells them apart. The sentence says first how to make it tell.
 */
function limiterHint(response: RawResponse, retryAfter: string | undefined): string {
	const by = answeredBy(response);
	const unreadable =
		retryAfter === undefined || retryAfter.trim() === ''
			? ''
			: ` Its Retry-After, “${editorText(retryAfter).slice(0, 40)}”, is neither seconds nor a date.`;
	return (
		'If a proxy or gateway in front of the service limits its rate, have it answer 429 (nginx: limit_req_status 429;) ' +
		`or add a Retry-After to its 503, and this node waits and sends such items again itself (${BEHIND_A_PROXY_LINK}). ` +
		`Its limit may have refused this request${by === undefined ? '' : ` (the answer came from ${by})`}, and then no run was created.${unreadable}`
	);
}

/**
 * Who failed a 5xx, for its title: a proxy or gateway when the answer is its own error page (an HTML
 * page from a server that names itself), else the service.
 */
function failedAt(response: RawResponse, status: number): string {
	const by = answerer(response);
	if (by === undefined || !isHtmlPage(response)) {
		return `The service failed to handle the request (${status})`;
	}
	return status === 503
		? `${by.name} in front of the service refused the request (503)`
		: `${by.name} in front of the service answered ${status} instead of it`;
}

/**
 * A 503 with a Retry-After: "not handled, come back later" (RFC 9110, 15.6.4 and 10.2.3), as a
 * proxy's rate limiter or a service in maintenance says it. No run was created, so it is a
 * push-back like a 429 with one: the pace waits, and the item is re-sent.
 */
function unavailableForNow(response: RawResponse, pushBack: { afterMs?: number }): Failure {
	const by = answeredBy(response);
	return {
		httpCode: '503',
		code: 'rate_limited',
		pushBack,
		// What came of it (the wait too long, the retries spent) is said once it failed: rateLimitAdvice.
		message: 'The service is unavailable for now (503)',
		// What to do depends on how the item was sent: rateLimitAdvice, once it has failed.
		description:
			`A 503 with Retry-After says the request was not handled, so no run was created${by === undefined ? '' : ` (this answer came from ${by})`}. ` +
			`What proxies and gateways answer: ${BEHIND_A_PROXY_LINK}.${answerSaid(response)}`,
	};
}

/** A non-2xx answer → Failure; undefined when the service accepted the request. */
export function failureFromAnswer(
	response: RawResponse,
	request: RequestInfo,
	now: number = Date.now(),
): Failure | undefined {
	const status = response.statusCode;
	if (status >= 200 && status < 300) return undefined;
	// What every failure an answer gave has: its status.
	const answered = { httpCode: String(status) } as const;
	const retryAfter = headerValue(response.headers, 'retry-after');
	const pushBack = { afterMs: parseRetryAfter(retryAfter, now) };
	const said = answerSaid(response);
	if (status >= 300 && status < 400) {
		const location = headerValue(response.headers, 'location') ?? '(no Location header)';
		return {
			...answered,
			code: 'redirected',
			message: `The service answered with a redirect (${status}) to ${location}`,
			description:
				"If the automation's webhook URL has changed, copy the new one from its Webhook details into the credential. " +
				'Redirects are never followed: the signed request would be sent on to another address.',
		};
	}
	if (status === 401 || status === 403) {
		return {
			...answered,
			code: 'signature_rejected',
			message: `The service rejected the signature (${status})`,
			description: `${signatureAdvice(response, request.signatureTimestamp)}${said}`,
		};
	}
	if (status === 404) {
		return {
			...answered,
			code: 'automation_not_found',
			message: `No automation found for id "${request.automationId}" (404)`,
			description:
				"Check the automation id at the end of the credential's webhook URL. The automation may have been deleted, " +
				`or its trigger type is no longer Webhook: copy the URL again from its Webhook details.${said}`,
		};
	}
	if (status === 413) {
		return {
			...answered,
			code: 'body_too_large',
			message: `The request body is too large for the service (413): ${request.bodyBytes} bytes`,
			description: `Send less context for this item, e.g. with ${inContext('selectedFields')}.${said}`,
		};
	}
	if (status === 429) {
		return {
			...answered,
			code: 'rate_limited',
			pushBack,
			// What came of it (the wait too long, the retries spent) is said once it failed: rateLimitAdvice.
			message: 'Rate limited by the service (429)',
			// What to do depends on how the item was sent: rateLimitAdvice, once it has failed.
			description: said.trim() || undefined,
		};
	}
	if (status === 400 || status === 422) {
		return {
			...answered,
			code: 'body_rejected',
			message: `The service rejected the request body (${status})`,
			description: `Check the message and context of this item.${said}`,
		};
	}
	if (status === 503 && pushBack.afterMs !== undefined) {
		return unavailableForNow(response, pushBack);
	}
	if (status >= 500) {
		const hint = status === 503 ? limiterHint(response, retryAfter) : '';
		return {
			...answered,
			code: 'may_have_run',
			pushBack: status === 503 ? pushBack : undefined,
			message: failedAt(response, status),
			description: `${hint}${said}`.trim() || undefined,
		};
	}
	return {
		...answered,
		code: 'service_refused',
		message: `The service refused the request (${status})`,
		description: `Check the credential's webhook URL and this item's data.${said}`,
	};
}
