/**
 * The quota a service tells (answer/quota.ts). Read: each header form, the rule that tells a Reset
 * in seconds from a time since 1970, and what is ignored rather than believed. Kept, with the times
 * passed in: what may start, when nothing may, and what an answer changes. The gate's use of it
 * (closing at a far reset, waking at the reset) is in serviceGate.test.ts; against a real service,
 * in quota.engine.test.ts.
 */
import { describe, expect, it } from 'vitest';

import type { QuotaReading } from '../../../../nodes/TriggerAutomation/answer/quota';
import { Quota, RESET_MARGIN_MS, readQuota } from '../../../../nodes/TriggerAutomation/answer/quota';
import { ANSWERED_AT } from '../../../support/failures';

const now = ANSWERED_AT;
const read = (headers: Record<string, string>) => readQuota(headers, now);

describe('the draft (-10/-11): RateLimit, with RateLimit-Policy', () => {
	it('reads r as the requests remaining and t as the seconds until the reset', () => {
		expect(
			read({ 'ratelimit-policy': '"default";q=100;w=60', ratelimit: '"default";r=50;t=30' }),
		).toEqual({ remaining: 50, resetAt: now + 30_000, header: 'RateLimit' });
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
		expect(read(headers)).toEqual({ remaining: 3, resetAt: now + 5_000_000, header: 'RateLimit' });
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
	it('reads Remaining as the requests remaining and Reset as seconds until the reset', () => {
		expect(
			read({ 'ratelimit-limit': '100', 'ratelimit-remaining': '50', 'ratelimit-reset': '30' }),
		).toEqual({ remaining: 50, resetAt: now + 30_000, header: 'RateLimit-Remaining' });
	});

	it('reads a limit written as the first drafts and Envoy write it: "100, 100;w=60"', () => {
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

const T0 = 1_000_000;
const told = (remaining: number, resetAt: number): QuotaReading => ({
	remaining,
	resetAt,
	header: 'RateLimit',
});

/** How many requests start at `now` before the quota holds them back (at most `most`). */
function startAll(quota: Quota, now: number, most = 100): number[] {
	const started: number[] = [];
	while (started.length < most && quota.waitMs(now) === 0) started.push(quota.start());
	return started;
}

describe('Quota', () => {
	it('holds nothing back while the service has told no quota', () => {
		const quota = new Quota();
		expect(startAll(quota, T0)).toHaveLength(100);
		quota.ended(0, undefined, 99);
		expect(quota.waitMs(T0)).toBe(0);
		expect(quota.reset).toBeUndefined();
	});

	it('lets start what the service said remains, less the requests in flight beside the answer; then nothing until the reset and its margin', () => {
		const quota = new Quota();
		const [first] = startAll(quota, T0, 3);
		// Answered with 2 requests still in flight: they may not be counted in the 5 yet.
		quota.ended(first, told(5, T0 + 10_000), 2);
		expect(startAll(quota, T0)).toHaveLength(3);
		expect(quota.waitMs(T0 + 4_000)).toBe(6_000 + RESET_MARGIN_MS);
		expect(quota.reset).toEqual({ at: T0 + 10_000 + RESET_MARGIN_MS, header: 'RateLimit' });
	});

	it('an answer telling more remaining than the last one is an older word: it raises nothing', () => {
		const quota = new Quota();
		const started = startAll(quota, T0, 4);
		quota.ended(started[1], told(2, T0 + 10_000), 3);
		// Told 2, less 3 in flight: nothing may start.
		expect(quota.waitMs(T0)).toBeGreaterThan(0);
		// The first request's answer, read late, counted fewer of them.
		quota.ended(started[0], told(3, T0 + 10_000), 2);
		expect(quota.waitMs(T0)).toBeGreaterThan(0);
	});

	it('an answer telling fewer remaining is the freshest word: the budget is taken from it', () => {
		const quota = new Quota();
		const started = startAll(quota, T0, 4);
		quota.ended(started[0], told(6, T0 + 10_000), 3);
		quota.ended(started[1], told(5, T0 + 10_000), 2);
		quota.ended(started[2], told(4, T0 + 10_000), 1);
		// Another process sharing the quota spent two meanwhile.
		quota.ended(started[3], told(1, T0 + 10_000), 0);
		expect(startAll(quota, T0)).toHaveLength(1);
	});

	it('a turn given back unused gives back what it spent; one sent and never answered stays spent', () => {
		const quota = new Quota();
		quota.ended(quota.start(), told(2, T0 + 10_000), 0);
		const [unused, unanswered] = startAll(quota, T0);
		expect(quota.waitMs(T0)).toBeGreaterThan(0);
		quota.unused(unused);
		expect(startAll(quota, T0)).toHaveLength(1);
		quota.unread(unanswered);
		expect(quota.waitMs(T0)).toBeGreaterThan(0);
	});

	it('after the reset one request goes alone until its answer tells the quota again', () => {
		const quota = new Quota();
		quota.ended(quota.start(), told(0, T0 + 1_000), 0);
		const reset = T0 + 1_000 + RESET_MARGIN_MS;
		expect(quota.waitMs(reset - 1)).toBe(1);
		const [alone] = startAll(quota, reset);
		expect(startAll(quota, reset)).toEqual([]);
		expect(quota.waitMs(reset + 60_000)).toBe(Number.POSITIVE_INFINITY);
		quota.ended(alone, told(9, reset + 1_000), 0);
		expect(startAll(quota, reset)).toHaveLength(9);
	});

	it('after the reset, an answer without a word of the quota ends it: nothing is held back', () => {
		const quota = new Quota();
		quota.ended(quota.start(), told(0, T0), 0);
		const [alone] = startAll(quota, T0 + RESET_MARGIN_MS);
		// An older request's answer, without a word, tells nothing of the quota after the reset.
		quota.ended(alone - 1, undefined, 1);
		expect(quota.waitMs(T0 + RESET_MARGIN_MS)).toBe(Number.POSITIVE_INFINITY);
		quota.ended(alone, undefined, 0);
		expect(startAll(quota, T0 + RESET_MARGIN_MS)).toHaveLength(100);
	});

	it('after the reset, the request alone given back unused, or never answered, lets another go alone', () => {
		const quota = new Quota();
		quota.ended(quota.start(), told(0, T0), 0);
		const now = T0 + RESET_MARGIN_MS;
		const [unused] = startAll(quota, now);
		quota.unused(unused);
		const [unanswered] = startAll(quota, now);
		expect(unanswered).toBe(unused + 1);
		quota.unread(unanswered);
		expect(startAll(quota, now)).toEqual([unanswered + 1]);
	});

	it('an answer read after the reset it told is a quota already reset: one request goes alone', () => {
		const quota = new Quota();
		quota.ended(quota.start(), told(0, T0 - 5_000), 0);
		expect(startAll(quota, T0)).toHaveLength(1);
	});
});
