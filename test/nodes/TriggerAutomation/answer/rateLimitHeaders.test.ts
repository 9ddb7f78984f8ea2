/**
 * The quota an answer's rate-limit headers tell (answer/rateLimitHeaders.ts): each form, the rule
 * that tells a Reset in seconds from a time since 1970, and what is ignored rather than believed.
 */
import { describe, expect, it } from 'vitest';

import { readQuota } from '../../../../nodes/TriggerAutomation/answer/rateLimitHeaders';
import { ANSWERED_AT } from '../../../support/failures';

const now = ANSWERED_AT;
const read = (headers: Record<string, string>) => readQuota(headers, now);

describe('the draft (-10/-11): RateLimit, with RateLimit-Policy', () => {
	it("reads r as the requests remaining, t as the seconds until the reset, the policy's q as the limit and w as the window's length", () => {
		expect(
			read({ 'ratelimit-policy': '"default";q=100;w=60', ratelimit: '"default";r=50;t=30' }),
		).toEqual({
			remaining: 50,
			resetAt: now + 30_000,
			header: 'RateLimit',
			limit: 100,
			windowMs: 60_000,
		});
	});

	it('reads the header names in any case, and RateLimit without RateLimit-Policy', () => {
		expect(read({ RateLimit: '"default";r=7;t=2' })).toEqual({
			remaining: 7,
			resetAt: now + 2_000,
			header: 'RateLimit',
		});
	});

	it('keeps the tightest of several policies: the fewest remaining', () => {
		const headers = {
			'ratelimit-policy': '"burst";q=100;w=60, "daily";q=1000;w=86400',
			ratelimit: '"burst";r=40;t=20, "daily";r=3;t=5000',
		};
		expect(read(headers)).toEqual({
			remaining: 3,
			resetAt: now + 5_000_000,
			header: 'RateLimit',
			limit: 1000,
			windowMs: 86_400_000,
		});
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
	});
});

describe('the earlier drafts (Kong): RateLimit-Limit, -Remaining, -Reset', () => {
	it('reads Remaining as the requests remaining, Reset as seconds until the reset, and the Limit', () => {
		expect(
			read({ 'ratelimit-limit': '100', 'ratelimit-remaining': '50', 'ratelimit-reset': '30' }),
		).toEqual({ remaining: 50, resetAt: now + 30_000, header: 'RateLimit-Remaining', limit: 100 });
	});

	it('reads a limit written as the first drafts and Envoy write it, "100, 100;w=60": the policy whose quota is the limit tells the window\'s length', () => {
		const headers = {
			'RateLimit-Limit': '100, 100;w=60',
			'RateLimit-Remaining': '0',
			'RateLimit-Reset': '12',
		};
		expect(read(headers)).toEqual({
			remaining: 0,
			resetAt: now + 12_000,
			header: 'RateLimit-Remaining',
			limit: 100,
			windowMs: 60_000,
		});
		const two = { ...headers, 'RateLimit-Limit': '10, 1000;w=3600, 10;w=1' };
		expect(read(two)?.windowMs).toBe(1_000);
		// No policy with the limit's quota, or two with different windows: no length.
		expect(read({ ...headers, 'RateLimit-Limit': '100, 1000;w=3600' })?.windowMs).toBeUndefined();
		expect(read({ ...headers, 'RateLimit-Limit': '100, 100;w=1, 100;w=60' })?.windowMs).toBe(
			undefined,
		);
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
		];
		for (const headers of cases) {
			expect(read(headers), JSON.stringify(headers)).toBeUndefined();
		}
	});
});

describe('X-RateLimit-Limit, -Remaining, -Reset: Reset as seconds or as a time since 1970', () => {
	it('reads a Reset up to 10^9 as seconds from now (Envoy)', () => {
		const headers = {
			'x-ratelimit-limit': '60',
			'x-ratelimit-remaining': '12',
			'x-ratelimit-reset': '45',
		};
		expect(read(headers)).toEqual({
			remaining: 12,
			resetAt: now + 45_000,
			header: 'X-RateLimit-Remaining',
			limit: 60,
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
