/**
 * The quota an answer's rate-limit headers tell (answer/rateLimitHeaders.ts): each form, the rule
 * that tells a Reset in seconds from a time since 1970, and what is ignored rather than believed.
 */
import { describe, expect, it } from 'vitest';

import { readQuota } from '../../../../nodes/TriggerAutomation/answer/rateLimitHeaders';
import { ANSWERED_AT } from '../../../support/failures';

const now = ANSWERED_AT;
const read = (headers: Record<string, string>) => readQuota(headers, now);

describe('the draft (-08 to -11): RateLimit, with RateLimit-Policy', () => {
	it('reads r as the requests remaining and t as the seconds until the reset', () => {
		expect(
			read({ 'ratelimit-policy': '"default";q=100;w=60', ratelimit: '"default";r=50;t=30' }),
		).toEqual({ remaining: 50, resetAt: now + 30_000, header: 'RateLimit' });
	});

	it("reads express-rate-limit's draft-8 bytes: spaces after ';', a byte-sequence pk, several quotas in one header", () => {
		// express-rate-limit source/headers.ts setDraft8Headers, as its test/library/headers-test.ts
		// expects them.
		expect(
			read({
				'ratelimit-policy': '"5-in-2hrs"; q=5; w=7200; pk=:MmMyNmI0NmI2OGZm:',
				ratelimit: '"5-in-2hrs"; r=4; t=7200',
			}),
		).toEqual({ remaining: 4, resetAt: now + 7_200_000, header: 'RateLimit' });
		const policies = [
			'"1-in-5sec"; q=1; w=5; pk=:MmMyNmI0NmI2OGZm:',
			'"5-in-1min"; q=5; w=60; pk=:MmMyNmI0NmI2OGZm:',
			'"8-in-2days"; q=8; w=172800; pk=:MmMyNmI0NmI2OGZm:',
		];
		const limits = [
			'"1-in-5sec"; r=0; t=5',
			'"5-in-1min"; r=4; t=60',
			'"8-in-2days"; r=7; t=172800',
		];
		expect(read({ 'ratelimit-policy': policies.join(', '), ratelimit: limits.join(', ') })).toEqual(
			{ remaining: 0, resetAt: now + 5_000, header: 'RateLimit' },
		);
	});

	it('reads the header names in any case, and RateLimit without RateLimit-Policy', () => {
		expect(read({ RateLimit: '"default";r=7;t=2' })).toEqual({
			remaining: 7,
			resetAt: now + 2_000,
			header: 'RateLimit',
		});
	});

	it('keeps the tightest of several policies: the fewest remaining, then the latest reset', () => {
		const headers = {
			'ratelimit-policy': '"burst";q=100;w=60, "daily";q=1000;w=86400',
			ratelimit: '"burst";r=40;t=20, "daily";r=3;t=5000',
		};
		expect(read(headers)).toEqual({ remaining: 3, resetAt: now + 5_000_000, header: 'RateLimit' });
		expect(read({ ratelimit: '"a";r=3;t=10, "b";r=3;t=60, "c";r=3;t=20' })?.resetAt).toBe(
			now + 60_000,
		);
	});

	it("takes a policy's window as the reset when RateLimit has no t", () => {
		const headers = { 'ratelimit-policy': '"min";q=10;w=60', ratelimit: '"min";r=4' };
		expect(read(headers)?.resetAt).toBe(now + 60_000);
	});

	it('uses no item without a reset, and none counted in other units than requests', () => {
		expect(read({ ratelimit: '"open";r=4' })).toBeUndefined();
		const bytes = {
			'ratelimit-policy': '"bytes";q=65535;qu="content-bytes";w=10, "req";q=100;w=10',
			ratelimit: '"bytes";r=100;t=10, "req";r=60;t=10',
		};
		expect(read(bytes)?.remaining).toBe(60);
	});

	it('ignores an item with more remaining than its policy allows', () => {
		expect(
			read({ 'ratelimit-policy': '"default";q=10;w=60', ratelimit: '"default";r=11;t=30' }),
		).toBeUndefined();
	});

	it('matches items to policies by name, a string or a token', () => {
		const headers = { 'ratelimit-policy': 'minute;q=10;w=60, "hour";q=100;w=3600' };
		expect(read({ ...headers, ratelimit: '"minute";r=4' })?.resetAt).toBe(now + 60_000);
		expect(read({ ...headers, ratelimit: 'hour;r=4' })?.resetAt).toBe(now + 3_600_000);
		expect(read({ ...headers, ratelimit: 'minute;r=11;t=1' })).toBeUndefined();
	});

	it('ignores what is not a structured-field list of items with an integer r', () => {
		for (const ratelimit of [
			'r=50;t=30',
			'"default";r=50;t=30,',
			'"default";r=-1;t=30',
			'"default";r=5.5;t=30',
			'"default";t=30',
			'"default";r=50;t=soon',
			'("a" "b");r=1;t=1',
			'"unterminated;r=1;t=1',
			'"default";r=1;t=1;',
			'"default" "other";r=1;t=1',
			'"default";r=1;t=1, limit=5',
		]) {
			expect(read({ ratelimit }), ratelimit).toBeUndefined();
		}
	});

	it('reads RateLimit when RateLimit-Policy does not parse (the policy is only informative)', () => {
		expect(read({ 'ratelimit-policy': '10;w=1, 50;w=60', ratelimit: '"x";r=9;t=1' })).toEqual({
			remaining: 9,
			resetAt: now + 1_000,
			header: 'RateLimit',
		});
		expect(read({ 'ratelimit-policy': '"x";q=', ratelimit: '"x";r=9;t=1' })?.remaining).toBe(9);
	});

	it('uses no policy without its quota q, or with a window w of 0: it is malformed', () => {
		expect(read({ 'ratelimit-policy': '"x";w=60', ratelimit: '"x";r=9' })).toBeUndefined();
		expect(read({ 'ratelimit-policy': '"x";q=10;w=0', ratelimit: '"x";r=9' })).toBeUndefined();
		expect(read({ 'ratelimit-policy': '"x";w=60', ratelimit: '"x";r=90;t=1' })?.remaining).toBe(90);
	});
});

describe('draft -07: RateLimit as a dictionary of limit, remaining and reset', () => {
	it("reads express-rate-limit's draft-7 bytes: remaining, and reset as seconds until the reset", () => {
		// express-rate-limit source/headers.ts setDraft7Headers; its test expects
		// 'limit=5, remaining=4, reset=60' beside RateLimit-Policy '5;w=60'.
		expect(
			read({ 'RateLimit-Policy': '100;w=60', RateLimit: 'limit=100, remaining=50, reset=30' }),
		).toEqual({ remaining: 50, resetAt: now + 30_000, header: 'RateLimit' });
		expect(read({ ratelimit: 'reset=0, remaining=0, limit=5' })).toEqual({
			remaining: 0,
			resetAt: now,
			header: 'RateLimit',
		});
	});

	it('ignores more remaining than the limit, a missing remaining or reset, and values that are not integers', () => {
		for (const ratelimit of [
			'limit=10, remaining=11, reset=30',
			'limit=10, reset=30',
			'limit=10, remaining=5',
			'limit=10, remaining="5", reset=30',
			'limit=10, remaining=5, reset=soon',
			'limit=10, remaining=-1, reset=30',
			'limit=ten, remaining=5, reset=30',
			'limit=10, remaining=5, reset=30,',
		]) {
			expect(read({ ratelimit }), ratelimit).toBeUndefined();
		}
	});

	it('reads a dictionary without a limit (nothing to disagree with)', () => {
		expect(read({ ratelimit: 'remaining=5, reset=3' })?.remaining).toBe(5);
	});
});

describe('the earlier drafts (-06 and before): RateLimit-Limit, -Remaining, -Reset', () => {
	it('reads Remaining as the requests remaining and Reset as seconds until the reset', () => {
		expect(
			read({ 'ratelimit-limit': '100', 'ratelimit-remaining': '50', 'ratelimit-reset': '30' }),
		).toEqual({ remaining: 50, resetAt: now + 30_000, header: 'RateLimit-Remaining' });
	});

	it("reads express-rate-limit's draft-6 bytes (with its RateLimit-Policy beside them)", () => {
		const headers = {
			'RateLimit-Policy': '5;w=60',
			'RateLimit-Limit': '5',
			'RateLimit-Remaining': '4',
			'RateLimit-Reset': '60',
		};
		expect(read(headers)).toEqual({
			remaining: 4,
			resetAt: now + 60_000,
			header: 'RateLimit-Remaining',
		});
	});

	it('reads a limit written as the first drafts and Envoy write it, "100, 100;w=60": the first item is the limit', () => {
		const headers = {
			'RateLimit-Limit': '100, 100;w=60',
			'RateLimit-Remaining': '0',
			'RateLimit-Reset': '12',
		};
		expect(read(headers)).toEqual({
			remaining: 0,
			resetAt: now + 12_000,
			header: 'RateLimit-Remaining',
		});
		expect(
			read({ ...headers, 'RateLimit-Limit': '10, 1000;w=3600', 'RateLimit-Remaining': '11' }),
		).toBe(undefined);
	});

	it('ignores more remaining than the limit, and a Remaining or Reset that is missing or not a number', () => {
		const cases: Array<Record<string, string>> = [
			{ 'ratelimit-limit': '10', 'ratelimit-remaining': '11', 'ratelimit-reset': '1' },
			{ 'ratelimit-remaining': '5' },
			{ 'ratelimit-reset': '5' },
			{ 'ratelimit-remaining': 'five', 'ratelimit-reset': '5' },
			{ 'ratelimit-remaining': '5', 'ratelimit-reset': 'soon' },
			{ 'ratelimit-remaining': '5', 'ratelimit-reset': '-3' },
			{ 'ratelimit-limit': 'lots', 'ratelimit-remaining': '5', 'ratelimit-reset': '3' },
			{ 'ratelimit-remaining': '5, 6', 'ratelimit-reset': '3' },
			{ 'ratelimit-remaining': '5', 'ratelimit-reset': new Date(now + 3000).toUTCString() },
		];
		for (const headers of cases) {
			expect(read(headers), JSON.stringify(headers)).toBeUndefined();
		}
	});
});

describe('X-RateLimit-Limit, -Remaining, -Reset: Reset as seconds or as a time since 1970', () => {
	it('reads a Reset up to 10^9 as seconds from now (Envoy, @fastify/rate-limit)', () => {
		const headers = {
			'x-ratelimit-limit': '60',
			'x-ratelimit-remaining': '12',
			'x-ratelimit-reset': '45',
		};
		expect(read(headers)).toEqual({
			remaining: 12,
			resetAt: now + 45_000,
			header: 'X-RateLimit-Remaining',
		});
	});

	it('reads a Reset above 10^9 as seconds since 1970 (GitHub), above 10^12 as milliseconds', () => {
		const at = now + 1_800_000;
		const headers = (reset: number) => ({
			'X-RateLimit-Limit': '5000',
			'X-RateLimit-Remaining': '4999',
			'X-RateLimit-Reset': String(reset),
		});
		expect(read(headers(at / 1000))?.resetAt).toBe(at);
		expect(read(headers(at))?.resetAt).toBe(at);
		// 10^9 itself is seconds from now: 31 years.
		expect(read(headers(1e9))?.resetAt).toBe(now + 1e12);
	});

	it('reads a Reset with a fraction of a second (Discord writes 1470173023.123)', () => {
		const headers = {
			'x-ratelimit-remaining': '1',
			'x-ratelimit-reset': `${(now + 1500) / 1000}`,
		};
		expect(read(headers)?.resetAt).toBe(now + 1500);
	});

	it('reads no date as a Reset: seconds from now, or a time since 1970, only', () => {
		const at = now + 30_000;
		for (const reset of [String(new Date(at)), new Date(at).toUTCString(), 'hello 1', '-3']) {
			const headers = { 'x-ratelimit-remaining': '3', 'x-ratelimit-reset': reset };
			expect(read(headers), reset).toBeUndefined();
		}
	});

	it('ignores more remaining than the limit', () => {
		const headers = {
			'x-ratelimit-limit': '5',
			'x-ratelimit-remaining': '6',
			'x-ratelimit-reset': '10',
		};
		expect(read(headers)).toBeUndefined();
	});
});

describe('forms together, and Retry-After', () => {
	it('reads forms that agree (resets within the 2 s their rounding allows), keeping the later reset', () => {
		const headers = {
			ratelimit: '"default";r=5;t=10',
			'x-ratelimit-remaining': '5',
			'x-ratelimit-reset': String(Math.ceil((now + 11_000) / 1000)),
		};
		expect(read(headers)).toEqual({
			remaining: 5,
			resetAt: now + 11_000,
			header: 'X-RateLimit-Remaining',
		});
	});

	it('ignores every form when two disagree on the remaining or on the reset', () => {
		expect(
			read({
				ratelimit: '"default";r=5;t=10',
				'x-ratelimit-remaining': '50',
				'x-ratelimit-reset': '10',
			}),
		).toBeUndefined();
		expect(
			read({
				'ratelimit-remaining': '5',
				'ratelimit-reset': '10',
				'x-ratelimit-remaining': '5',
				'x-ratelimit-reset': '60',
			}),
		).toBeUndefined();
	});

	it("reads express-rate-limit's draft-7 and legacy headers together: its seconds rounded up agree", () => {
		const headers = {
			'ratelimit-policy': '5;w=60',
			ratelimit: 'limit=5, remaining=4, reset=30',
			'x-ratelimit-limit': '5',
			'x-ratelimit-remaining': '4',
			'x-ratelimit-reset': String(Math.ceil((now + 29_400) / 1000)),
		};
		expect(read(headers)).toEqual({ remaining: 4, resetAt: now + 30_000, header: 'RateLimit' });
	});

	it('reads the form that parses when another does not', () => {
		const headers = {
			ratelimit: 'not a list',
			'x-ratelimit-remaining': '3',
			'x-ratelimit-reset': '4',
		};
		expect(read(headers)?.remaining).toBe(3);
	});

	it("takes a Retry-After's end as the reset: it takes precedence (draft §7)", () => {
		expect(read({ ratelimit: '"default";r=0;t=30', 'retry-after': '5' })?.resetAt).toBe(
			now + 5_000,
		);
	});

	it('reads nothing from an answer without rate-limit headers', () => {
		expect(read({ 'content-type': 'application/json', 'retry-after': '5' })).toBeUndefined();
	});
});
