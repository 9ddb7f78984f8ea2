import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { PACKAGE_DIR } from '../../../../dev/packageDir';
import { rateLimitAdvice } from '../../../../nodes/TriggerAutomation/answer/rateLimited';
import {
	BEHIND_A_PROXY_DOCS,
	BEHIND_A_PROXY_LINK,
	answeredBy,
	failureFromAnswer,
	parseRetryAfter,
} from '../../../../nodes/TriggerAutomation/answer/serviceAnswer';
import { ANSWERED_AT, ANSWERED_REQUEST } from '../../../support/failures';

const now = ANSWERED_AT;
const request = ANSWERED_REQUEST;

describe('Retry-After (429): delta-seconds or an HTTP date', () => {
	it('reads seconds, with a fraction too (rate-limiter-flexible sends one)', () => {
		expect(parseRetryAfter('7', now)).toBe(7_000);
		expect(parseRetryAfter('0.937', now)).toBe(937);
	});

	it('reads an HTTP date as the time left until then', () => {
		expect(parseRetryAfter('Sat, 21 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
		expect(parseRetryAfter('Sat, 21 Nov 2026 09:59:00 GMT', now)).toBe(0);
	});

	it('ignores what it cannot read', () => {
		expect(parseRetryAfter(undefined, now)).toBeUndefined();
		expect(parseRetryAfter('soon', now)).toBeUndefined();
	});
});

describe('a rejected signature (401, 403): what to do first, then the clocks, then what the service said', () => {
	const body = JSON.stringify({
		error: 'invalid_signature',
		message: 'The signature does not match the body. It signs "<t>.<body>" with the same t.',
	});
	const rejected = (date?: number) =>
		failureFromAnswer(
			{
				statusCode: 403,
				headers: date === undefined ? {} : { date: new Date(date).toUTCString() },
				body: Buffer.from(body),
			},
			request,
			now,
		)!;
	const SAID =
		' The service said: The signature does not match the body. It signs "‹t›.‹body›" with the same t.';

	it('clocks that agree: copy the signing secret again', () => {
		expect(rejected(now + 1_000).description).toBe(
			"Copy the signing secret again from this automation's Webhook details into the credential: " +
				'the clocks agree, so the secret is the likely cause ' +
				'(server time 2026-11-21T10:00:01.000Z, signature timestamp 2026-11-21T10:00:00.000Z).' +
				SAID,
		);
	});

	it('a clock more than 5 minutes off: synchronise it', () => {
		expect(rejected(now - 600_000).description).toBe(
			"Synchronise the clock of the machine running n8n (NTP): this machine's clock is 600 s ahead of the service's, " +
				'more than the 5 minutes a signature is valid ' +
				'(server time 2026-11-21T09:50:00.000Z, signature timestamp 2026-11-21T10:00:00.000Z).' +
				SAID,
		);
	});

	it('a clock off by less than 5 minutes: the secret is still the likely cause', () => {
		expect(rejected(now + 90_000).description).toBe(
			"Copy the signing secret again from this automation's Webhook details into the credential: " +
				"this machine's clock is 90 s behind the service's, but within the 5 minutes a signature is valid, " +
				'so the secret is the likely cause ' +
				'(server time 2026-11-21T10:01:30.000Z, signature timestamp 2026-11-21T10:00:00.000Z).' +
				SAID,
		);
	});

	it('no Date header: check the secret and the clock', () => {
		expect(rejected().description).toBe(
			"Check that the credential's signing secret is the one shown in this automation's Webhook details, and that this machine's clock is correct." +
				SAID,
		);
	});
});

const NGINX_503_PAGE =
	'<html>\r\n<head><title>503 Service Temporarily Unavailable</title></head>\r\n<body>\r\n' +
	'<center><h1>503 Service Temporarily Unavailable</h1></center>\r\n<hr><center>nginx/1.22.1</center>\r\n' +
	'</body>\r\n</html>\r\n';
const NGINX_HEADERS = { server: 'nginx/1.22.1', 'content-type': 'text/html' };

const answered = (statusCode: number, headers: Record<string, string>, body = '') =>
	failureFromAnswer({ statusCode, headers, body: Buffer.from(body) }, request, now)!;

describe('a 503 with Retry-After is a push-back: nothing was created, the item is re-sent', () => {
	it('in seconds: rate_limited, re-sent after the wait, naming who answered', () => {
		const failure = answered(503, { ...NGINX_HEADERS, 'retry-after': '1' }, NGINX_503_PAGE);
		expect(failure).toMatchObject({
			code: 'rate_limited',
			httpCode: '503',
			pushBack: { afterMs: 1_000 },
			message: 'The service is unavailable for now (503)',
		});
		expect(failure.description).toBe(
			'A 503 with Retry-After says the request was not handled, so no run was created ' +
				'(this answer came from nginx/1.22.1 (its Server header)). ' +
				`What proxies and gateways answer: ${BEHIND_A_PROXY_LINK}. ` +
				'The answer was an HTML page titled “503 Service Temporarily Unavailable”.',
		);
	});

	it('once the item fails, it is led by the advice that fits how it was sent, as a 429 is', () => {
		const failure = answered(503, { ...NGINX_HEADERS, 'retry-after': '1' }, NGINX_503_PAGE);
		const stopped = { why: 'retries spent', turnedAway: 6, turnedAwayForMs: 5_400 } as const;
		const how = { sending: 'adaptive', atOnce: 1, retries: 5 } as const;
		const { message, description } = rateLimitAdvice({ ...failure, stopped }, how);
		expect(message).toBe(
			'The service is unavailable for now (503): turned away 6 times in 5 s, retries spent',
		);
		expect(description).toMatch(
			/^Raise Options → Retries When Not Accepted \(now 5; .*\), or run this item again later, .* A 503 with Retry-After says/,
		);
		expect(description).not.toMatch(/Sending|Adaptive|One at a Time|Fixed Batches|fewer requests/);
	});

	it('as an HTTP date: the wait is the time left until then', () => {
		const failure = answered(503, { 'retry-after': 'Sat, 21 Nov 2026 10:00:30 GMT' });
		expect(failure).toMatchObject({
			code: 'rate_limited',
			pushBack: { afterMs: 30_000 },
		});
		expect(failure.message).toBe('The service is unavailable for now (503)');
	});

	it('only a 503: a 502 or 504 with Retry-After may have created the run', () => {
		for (const status of [500, 502, 504]) {
			expect(answered(status, { 'retry-after': '1' })).toMatchObject({
				code: 'may_have_run',
			});
		}
	});
});

describe('a 503 without Retry-After stays may_have_run, and says a rate limiter may be the cause', () => {
	const HOW =
		'If a proxy or gateway in front of the service limits its rate, have it answer 429 (nginx: limit_req_status 429;) ' +
		`or add a Retry-After to its 503, and this node waits and sends such items again itself (${BEHIND_A_PROXY_LINK}).`;
	const MAY = 'Its limit may have refused this request';
	const NO_RUN = 'and then no run was created.';

	it("nginx's default refusal: named from its Server header, its page by its title", () => {
		const failure = answered(503, NGINX_HEADERS, NGINX_503_PAGE);
		expect(failure).toMatchObject({
			code: 'may_have_run',
			message: 'nginx/1.22.1 in front of the service refused the request (503)',
		});
		expect(failure.description).toBe(
			`${HOW} ${MAY} (the answer came from nginx/1.22.1 (its Server header)), ${NO_RUN} ` +
				'The answer was an HTML page titled “503 Service Temporarily Unavailable”.',
		);
	});

	it('with no header naming who answered, the hint stands alone before what the service said', () => {
		expect(answered(503, {}, 'upstream trouble').description).toBe(
			`${HOW} ${MAY}, ${NO_RUN} The service said: upstream trouble`,
		);
	});

	it('a Retry-After the node cannot read is said to be so', () => {
		expect(answered(503, { 'retry-after': 'soon' }).description).toBe(
			`${HOW} ${MAY}, ${NO_RUN} Its Retry-After, “soon”, is neither seconds nor a date.`,
		);
	});

	it("the title names who refused: a proxy's own error page, else the service", () => {
		expect(answered(503, { server: 'nginx/1.22.1' }, '{"message":"down"}').message).toBe(
			'The service failed to handle the request (503)',
		);
		expect(answered(503, {}, NGINX_503_PAGE).message).toBe(
			'The service failed to handle the request (503)',
		);
		expect(answered(502, NGINX_HEADERS, '<html><title>502 Bad Gateway</title>').message).toBe(
			'nginx/1.22.1 in front of the service answered 502 instead of it',
		);
	});

	it('other 5xx get no hint; an HTML page is quoted by its title there too', () => {
		expect(
			answered(502, NGINX_HEADERS, '<html><head><title>502 Bad Gateway</title>').description,
		).toBe('The answer was an HTML page titled “502 Bad Gateway”.');
		expect(answered(500, {}, '<!DOCTYPE html><p>oops</p>').description).toBe(
			'The answer was an HTML page.',
		);
	});

	it("a proxy's HTML page answering 4xx is told by its title too, never quoted as markup", () => {
		const nginx429 =
			'<html>\r\n<head><title>429 Too Many Requests</title></head>\r\n<body>\r\n' +
			'<center><h1>429 Too Many Requests</h1></center>\r\n<hr><center>nginx/1.22.1</center>\r\n' +
			'</body>\r\n</html>\r\n';
		expect(answered(429, NGINX_HEADERS, nginx429).description).toBe(
			'The answer was an HTML page titled “429 Too Many Requests”.',
		);
		expect(
			answered(403, {}, '<!DOCTYPE html><title>Access denied</title><p>WAF</p>').description,
		).toMatch(/ The answer was an HTML page titled “Access denied”\.$/);
		// A service's own JSON or text is still quoted.
		expect(answered(429, {}, '{"message":"slow down"}').description).toBe(
			'The service said: slow down',
		);
	});
});

describe('who answered, as the answer names it', () => {
	const by = (headers: Record<string, string>) =>
		answeredBy({ statusCode: 503, headers, body: Buffer.alloc(0) });

	it("its Server header first, then Via, then Envoy's rate limit marker", () => {
		expect(by({ server: 'envoy', via: '1.1 varnish' })).toBe('envoy (its Server header)');
		expect(by({ via: '1.1 abc.cloudfront.net (CloudFront)' })).toBe(
			'1.1 abc.cloudfront.net (CloudFront) (its Via header)',
		);
		expect(by({ 'x-envoy-ratelimited': 'true' })).toBe('Envoy (its x-envoy-ratelimited header)');
		expect(by({})).toBeUndefined();
	});

	it('as plain text, at most 80 characters', () => {
		expect(by({ server: `<b>${'x'.repeat(100)}` })).toBe(
			`‹b›${'x'.repeat(77)} (its Server header)`,
		);
	});
});

describe('the page the errors link to', () => {
	it('is docs/behind-a-proxy.md of this repository, on its homepage', () => {
		const manifest = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as {
			homepage: string;
		};
		const base = `${manifest.homepage.replace(/#.*$/, '')}/blob/main/`;
		expect(BEHIND_A_PROXY_DOCS.startsWith(base)).toBe(true);
		expect(existsSync(join(PACKAGE_DIR, BEHIND_A_PROXY_DOCS.slice(base.length)))).toBe(true);
	});
});
