/**
 * The quota the simulator and the quota engine tests keep and tell (dev/quotaHeaders.js), with a
 * clock the test holds: a fixed window, its headers in each form, read back by the node's own
 * reader (answer/rateLimitHeaders.ts), and the `--quota` flags.
 */
import { describe, expect, it } from 'vitest';

import type { QuotaSpec } from '../../dev/quotaHeaders';
import { FixedWindowQuota, QUOTA_FORMS, quotaFlags } from '../../dev/quotaHeaders';
import { readQuota } from '../../nodes/TriggerAutomation/answer/rateLimitHeaders';

const T0 = Date.parse('2026-11-21T10:00:00.250Z');

/** A quota on a clock the test moves with `at`. */
function quotaAt(spec: QuotaSpec) {
	let now = T0;
	const quota = new FixedWindowQuota(spec, () => now);
	return { quota, at: (ms: number) => (now = T0 + ms) };
}

describe('a fixed-window quota, told on every answer', () => {
	it('takes `limit` requests per window from the first one, then answers 429 with Retry-After until the window ends', () => {
		const { quota, at } = quotaAt({ limit: 2, windowSeconds: 10, form: 'ratelimit' });
		expect([quota.take(), quota.take()].map((answer) => answer.admitted)).toEqual([true, true]);
		at(2_500);
		expect(quota.take()).toEqual({
			admitted: false,
			headers: {
				'RateLimit-Limit': '2',
				'RateLimit-Remaining': '0',
				'RateLimit-Reset': '8',
				'Retry-After': '8',
			},
		});
		at(10_000);
		expect(quota.take().admitted).toBe(true);
		expect(quota.refused).toBe(1);
	});

	it.each(QUOTA_FORMS)(
		'%s: the node reads what it tells, the reset no earlier than the window ends',
		(form) => {
			const { quota, at } = quotaAt({ limit: 5, windowSeconds: 60, form });
			quota.take();
			const now = at(20_400);
			const { headers } = quota.take();
			const reading = readQuota(headers, now);
			expect(reading?.remaining).toBe(3);
			expect(reading!.resetAt).toBeGreaterThanOrEqual(T0 + 60_000);
			expect(reading!.resetAt).toBeLessThan(T0 + 61_000);
		},
	);
});

describe('the --quota and --quota-headers flags', () => {
	it('read <requests>/<seconds> and a form, the draft by default', () => {
		expect(quotaFlags('20/10', undefined)).toEqual({ limit: 20, windowSeconds: 10, form: 'draft' });
		expect(quotaFlags('5/60', 'x-ratelimit')).toEqual({
			limit: 5,
			windowSeconds: 60,
			form: 'x-ratelimit',
		});
		expect(quotaFlags(undefined, undefined)).toBeUndefined();
	});

	it('say what is wrong with a value they cannot use', () => {
		expect(quotaFlags('20', undefined)).toEqual({
			problem: expect.stringMatching(/^--quota must be/),
		});
		expect(quotaFlags('0/10', undefined)).toEqual({
			problem: expect.stringMatching(/^--quota must be/),
		});
		expect(quotaFlags('5/10', 'github')).toEqual({
			problem: expect.stringMatching(/^--quota-headers must be one of draft, draft-07, ratelimit/),
		});
		expect(quotaFlags(undefined, 'draft')).toEqual({
			problem: '--quota-headers is only used with --quota',
		});
	});
});
