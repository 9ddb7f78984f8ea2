/**
 * When the window of a quota a service tells ends (sending/windowEnd.ts), as the quota it belongs
 * to keeps it (sending/quota.ts), with the times passed in: the earliest bound, the window carried
 * on by its length, and what a request alone at a reset teaches when it is turned away.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { Quota } from '../../../../nodes/TriggerAutomation/sending/quota';
import { RESET_MARGIN_MS } from '../../../../nodes/TriggerAutomation/sending/windowEnd';
import { T0, heardOnce, startAll, told } from '../../../support/quotaAnswers';

/**
 * A quota whose first word, read at T0, told none remaining until `end` (of `limit`, in a window
 * of `windowMs`).
 */
function spentUntil(end: number, limit?: number, windowMs?: number): Quota {
	const quota = new Quota();
	quota.ended(quota.start(T0), told(0, end, limit, windowMs), 0, T0);
	return quota;
}

describe('WindowEnd', () => {
	// Shared with others, the request alone at a reset may go up to a round trip after it
	// (quota.test.ts); here it goes at the reset.
	beforeEach(() => vi.spyOn(Math, 'random').mockReturnValue(0));
	afterEach(() => vi.restoreAllMocks());

	it('a reset told is taken as told until the request alone at it is turned away by the window before: from then on, a second late', () => {
		const quota = spentUntil(T0);
		const [alone] = startAll(quota, T0);
		// The service rounded its reset down: the window had half a second to go.
		quota.ended(alone, told(0, T0 + 1_000), 0, T0, true);
		expect(quota.waitMs(T0 + 1_000)).toBe(RESET_MARGIN_MS);
		expect(quota.reset).toEqual({ at: T0 + 1_000 + RESET_MARGIN_MS, header: 'RateLimit' });
	});

	it('the reset is the earliest any answer of the window told: each is a time the window cannot end after', () => {
		const quota = heardOnce(9, T0 + 2_000);
		const [first, second] = startAll(quota, T0, 2);
		// Told later, read later: a second rounded up, the window still ends by T0 + 2 s.
		quota.ended(first, told(7, T0 + 2_900), 1, T0 + 900);
		expect(quota.reset?.at).toBe(T0 + 2_000);
		quota.ended(second, told(6, T0 + 1_950), 0, T0 + 950);
		expect(quota.reset?.at).toBe(T0 + 1_950);
		// Past it, the next window's first word is taken as told.
		const [alone] = startAll(quota, T0 + 1_950);
		quota.ended(alone, told(9, T0 + 3_960), 0, T0 + 1_960);
		expect(quota.reset?.at).toBe(T0 + 3_960);
	});

	it("told the window's length, a window's reset is the last window's carried on by it, when earlier than its first answer tells and within the second that answer is rounded to", () => {
		// The window of 1 s ends at T0 + 1 s, its end told exactly.
		const quota = spentUntil(T0 + 1_000, 10, 1_000);
		const [alone] = startAll(quota, T0 + 1_000);
		// Answered 100 ms into the next window: "1 s" rounded up, a bound 100 ms after its end.
		quota.ended(alone, told(9, T0 + 2_100, 10, 1_000), 0, T0 + 1_100);
		expect(quota.reset?.at).toBe(T0 + 2_000);
		// Without the length, the bound is the answer's.
		const untold = spentUntil(T0 + 1_000, 10);
		untold.ended(startAll(untold, T0 + 1_000)[0], told(9, T0 + 2_100, 10), 0, T0 + 1_100);
		expect(untold.reset?.at).toBe(T0 + 2_100);
	});

	it('a window carried on to more than a second before the reset its first answer tells is not the window the service keeps: the answer is taken', () => {
		const quota = spentUntil(T0 + 2_000, 10, 2_000);
		// Quiet for 7 s: the service began its next window with this request. Carried on, the last
		// window's end is T0 + 10 s, 1.3 s before the reset told.
		const [alone] = startAll(quota, T0 + 9_200);
		quota.ended(alone, told(9, T0 + 11_300, 10, 2_000), 0, T0 + 9_300);
		expect(quota.reset?.at).toBe(T0 + 11_300);
	});

	it('the request alone at a carried reset turned away: windows do not follow one another there, none is carried again, and no margin is learned', () => {
		const quota = spentUntil(T0 + 1_000, 10, 1_000);
		// The window began when the request alone reached it, 50 ms after the last one's end.
		quota.ended(startAll(quota, T0 + 1_000)[0], told(9, T0 + 2_100, 10, 1_000), 0, T0 + 1_100);
		expect(quota.reset?.at).toBe(T0 + 2_000);
		// Carried, the reset came 50 ms before the window's end: the request alone is turned away.
		const [early] = startAll(quota, T0 + 2_000);
		quota.ended(early, told(0, T0 + 3_000, 10, 1_000), 0, T0 + 2_000, true);
		expect(quota.marginMs).toBe(0);
		quota.ended(startAll(quota, T0 + 3_000)[0], told(9, T0 + 4_100, 10, 1_000), 0, T0 + 3_100);
		expect(quota.reset?.at).toBe(T0 + 4_100);
	});

	it('the request alone at a reset, turned away by a window already spent (a reset a window later), moves no reset: the next is as told', () => {
		const quota = spentUntil(T0);
		const [alone] = startAll(quota, T0);
		quota.ended(alone, told(0, T0 + 2_000), 0, T0, true);
		expect(quota.reset?.at).toBe(T0 + 2_000);
		expect(quota.marginMs).toBe(0);
	});
});
