/**
 * The budget of the quota a service tells (sending/quota.ts), with the times passed in: what may
 * start, when nothing may, and what an answer changes; when its window ends, windowEnd.test.ts.
 * The gate's use of it (closing at a far reset, waking at the reset) is in serviceGate.test.ts;
 * against a real service, in quota.engine.test.ts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

import { Quota } from '../../../../nodes/TriggerAutomation/sending/quota';
import { RESET_MARGIN_MS } from '../../../../nodes/TriggerAutomation/sending/windowEnd';
import { T0, heardOnce, startAll, told } from '../../../support/quotaAnswers';

describe('Quota', () => {
	it('holds nothing back while the service has told no quota', () => {
		const quota = new Quota();
		expect(startAll(quota, T0)).toHaveLength(100);
		quota.ended(0, undefined, 99, T0);
		expect(quota.waitMs(T0)).toBe(0);
		expect(quota.reset).toBeUndefined();
	});

	it('the first word has no window before it to reckon other clients from: one request goes, whose answer tells what they spent', () => {
		const quota = new Quota();
		quota.ended(quota.start(T0), told(9, T0 + 10_000, 10), 0, T0);
		const started = startAll(quota, T0);
		expect(started).toHaveLength(1);
		// Only this process's two are counted: alone, half of 8.
		quota.ended(started[0], told(8, T0 + 10_000, 10), 0, T0);
		expect(startAll(quota, T0)).toHaveLength(4);
	});

	it('lets start half of what the service said remains (rounded up), less the requests in flight beside the answer, before the next answer tells it anew; then nothing until the reset', () => {
		const quota = heardOnce();
		const [first, second] = startAll(quota, T0, 3);
		// Answered with 2 requests still in flight: they may not be counted in the 5 yet.
		quota.ended(first, told(5, T0 + 10_000), 2, T0);
		expect(startAll(quota, T0)).toHaveLength(2);
		// 3 remain, 3 in flight beside the answer: the next answer with 1 remaining and 0 beside it.
		quota.ended(second, told(3, T0 + 10_000), 3, T0);
		expect(quota.waitMs(T0)).toBeGreaterThan(0);
		quota.ended(first + 2, told(1, T0 + 10_000), 0, T0);
		expect(startAll(quota, T0)).toHaveLength(1);
		expect(quota.waitMs(T0 + 4_000)).toBe(6_000);
		expect(quota.reset).toEqual({ at: T0 + 10_000, header: 'RateLimit' });
	});

	it('an answer telling more remaining than the last one is an older word: it raises nothing', () => {
		const quota = new Quota();
		const started = startAll(quota, T0, 4);
		quota.ended(started[1], told(2, T0 + 10_000), 3, T0);
		// Told 2, less 3 in flight: nothing may start.
		expect(quota.waitMs(T0)).toBeGreaterThan(0);
		// The first request's answer, read late, counted fewer of them.
		quota.ended(started[0], told(3, T0 + 10_000), 2, T0);
		expect(quota.waitMs(T0)).toBeGreaterThan(0);
	});

	it('an answer telling fewer remaining is the freshest word: the budget is taken from it', () => {
		const quota = new Quota();
		const started = startAll(quota, T0, 4);
		quota.ended(started[0], told(6, T0 + 10_000), 3, T0);
		quota.ended(started[1], told(5, T0 + 10_000), 2, T0);
		quota.ended(started[2], told(4, T0 + 10_000), 1, T0);
		// Another process sharing the quota spent two meanwhile.
		quota.ended(started[3], told(1, T0 + 10_000), 0, T0);
		expect(startAll(quota, T0)).toHaveLength(1);
	});

	it('a turn given back unused gives back what it spent; one sent and never answered stays spent', () => {
		const quota = new Quota();
		quota.ended(quota.start(T0), told(2, T0 + 10_000), 0, T0);
		const [unused, unanswered] = startAll(quota, T0);
		expect(quota.waitMs(T0)).toBeGreaterThan(0);
		quota.unused(unused);
		expect(startAll(quota, T0)).toHaveLength(1);
		quota.unread(unanswered);
		expect(quota.waitMs(T0)).toBeGreaterThan(0);
	});

	it('after the reset one request goes alone until its answer tells the quota again', () => {
		const quota = new Quota();
		quota.ended(quota.start(T0), told(0, T0 + 1_000), 0, T0);
		const reset = T0 + 1_000;
		expect(quota.waitMs(reset - 1)).toBe(1);
		const [alone] = startAll(quota, reset);
		expect(startAll(quota, reset)).toEqual([]);
		expect(quota.waitMs(reset + 60_000)).toBe(Number.POSITIVE_INFINITY);
		quota.ended(alone, told(9, reset + 1_000), 0, reset);
		expect(startAll(quota, reset)).toHaveLength(5);
	});

	it('after the reset, an answer without a word of the quota ends it: nothing is held back', () => {
		const quota = new Quota();
		quota.ended(quota.start(T0), told(0, T0), 0, T0);
		const [alone] = startAll(quota, T0 + RESET_MARGIN_MS);
		// An older request's answer, without a word, tells nothing of the quota after the reset.
		quota.ended(alone - 1, undefined, 1, T0 + RESET_MARGIN_MS);
		expect(quota.waitMs(T0 + RESET_MARGIN_MS)).toBe(Number.POSITIVE_INFINITY);
		quota.ended(alone, undefined, 0, T0 + RESET_MARGIN_MS);
		expect(startAll(quota, T0 + RESET_MARGIN_MS)).toHaveLength(100);
	});

	it('after the reset, the request alone given back unused, or never answered, lets another go alone', () => {
		const quota = new Quota();
		quota.ended(quota.start(T0), told(0, T0), 0, T0);
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
		quota.ended(quota.start(T0), told(0, T0 - 5_000), 0, T0);
		expect(startAll(quota, T0)).toHaveLength(1);
	});
});

describe('Quota shared with other clients', () => {
	afterEach(() => vi.restoreAllMocks());

	it("the window's first answer telling more of the limit used than this process started counts two clients, not the use before it came", () => {
		const quota = heardOnce(0, T0);
		// This window's first start; 4 of 20 used: others spend it. Of 16, its share is 8: half, 4.
		quota.ended(startAll(quota, T0)[0], told(16, T0 + 10_000, 20), 0, T0);
		expect(startAll(quota, T0)).toHaveLength(4);
	});

	it("after the window's first answer, the clients are what the window's use grew by ÷ what this process's did: it takes half of its share", () => {
		const quota = heardOnce(0, T0);
		// It came late: 10 of 40 used at its first answer in the window.
		quota.ended(startAll(quota, T0)[0], told(30, T0 + 10_000, 40), 0, T0);
		const [second] = startAll(quota, T0, 1);
		// Its own use grew by one, the window's by four: 4 clients (not 14 ÷ 2). Of 26, its share
		// is 6.5: half, 3.25, rounded down (it was not first to the window).
		quota.ended(second, told(26, T0 + 10_000, 40), 0, T0);
		expect(startAll(quota, T0)).toHaveLength(3);
	});

	it('a 429 to a request its budget had room for counts a second client', () => {
		const quota = heardOnce(9);
		quota.ended(startAll(quota, T0)[0], told(8, T0 + 10_000), 0, T0);
		const started = startAll(quota, T0);
		expect(started).toHaveLength(4);
		quota.ended(started[0], told(0, T0 + 10_000), 3, T0, true);
		// In the next window, alone it would take half of 6: 3. With two, half its share: 1.5, one
		// and a chance of one (an answer that does not tell the limit does not say who came first).
		const next = T0 + 10_000;
		const [alone] = startAll(quota, next);
		vi.spyOn(Math, 'random').mockReturnValue(0.99);
		quota.ended(alone, told(6, next + 10_000), 0, next);
		expect(startAll(quota, next)).toHaveLength(1);
	});

	/** A quota that reckoned 4 clients in the window ending at `T0 + 10 s`, 16 of 24 remaining. */
	function fourClients(): Quota {
		const quota = heardOnce(0, T0);
		quota.ended(startAll(quota, T0)[0], told(20, T0 + 10_000, 24), 0, T0);
		quota.ended(startAll(quota, T0, 1)[0], told(16, T0 + 10_000, 24), 0, T0);
		return quota;
	}

	/** The request alone at the reset `T0 + 10 s` answered at once: `remaining` of `limit` left. */
	function answeredAtReset(quota: Quota, remaining: number, limit = 24): void {
		const next = T0 + 10_000;
		quota.ended(startAll(quota, next)[0], told(remaining, next + 10_000, limit), 0, next);
	}

	it('the clients reckoned in a window hold in the next, and end with one whose answers tell it alone', () => {
		const quota = fourClients();
		const next = T0 + 10_000;
		answeredAtReset(quota, 23);
		// Alone at its first answer, but 4 in the last window: 3 of them not yet seen, half of
		// 20 ÷ 4 is 2.5, rounded up by the first to the window.
		const started = startAll(quota, next);
		expect(started).toHaveLength(3);
		// The window's use grew by one, its own by one or two (one in flight beside): alone in it.
		quota.ended(started[0], told(22, next + 10_000, 24), 1, next);
		const after = next + 10_000;
		quota.ended(startAll(quota, after)[0], told(23, after + 10_000, 24), 0, after);
		expect(startAll(quota, after)).toHaveLength(12);
	});

	it("a window whose answers tell nothing of the clients leaves the last window's reckoning standing", () => {
		const quota = fourClients();
		// One answer in this window: alone at it, nothing to compare it with.
		answeredAtReset(quota, 23);
		const after = T0 + 20_000;
		quota.ended(startAll(quota, after)[0], told(23, after + 10_000, 24), 0, after);
		// Still 4 clients: half of (23 less the 3 not yet seen) ÷ 4, rounded up (alone, 12).
		expect(startAll(quota, after)).toHaveLength(3);
	});

	it('of a quota shared, the clients not yet seen in the window are kept out of the budget', () => {
		const quota = fourClients();
		// 4 a window, 4 clients: first to the window, 3 remain, each another client's
		// (quotaClients.test.ts has the share's rules).
		answeredAtReset(quota, 3, 4);
		expect(startAll(quota, T0 + 10_000)).toEqual([]);
	});

	it('a quota that resets later than the node waits is not shared: half of it goes, no client kept out', () => {
		const quota = fourClients();
		const next = T0 + 10_000;
		// 4 a window, first to it, 3 remain until an hour away: shared, none (3 clients unseen).
		quota.ended(startAll(quota, next)[0], told(3, next + 3_600_000, 4), 0, next);
		expect(startAll(quota, next)).toHaveLength(2);
	});

	it('shared with others, the request alone at a reset goes at a random point of a round trip after it; alone, at once', () => {
		const quota = fourClients();
		const next = T0 + 10_000;
		// The request alone at `next` is answered 50 ms later.
		quota.ended(startAll(quota, next)[0], told(20, next + 10_000, 24), 0, next + 50);
		vi.spyOn(Math, 'random').mockReturnValue(0.5);
		const after = next + 10_000;
		expect(quota.waitMs(after)).toBe(25);
		expect(startAll(quota, after + 25)).toHaveLength(1);
		// Alone: its request alone at `T0 + 1 s` answered 50 ms later too.
		const alone = heardOnce(10, T0 + 1_000);
		alone.ended(startAll(alone, T0 + 1_000)[0], told(9, T0 + 2_000, 10), 0, T0 + 1_050);
		expect(alone.waitMs(T0 + 2_000)).toBe(0);
	});

	it('the wait at a reset is a second at most, and a request alone that got no answer measures no round trip', () => {
		vi.spyOn(Math, 'random').mockReturnValue(0.99);
		const slow = fourClients();
		const next = T0 + 10_000;
		// The service took 5 s to answer the request alone.
		slow.ended(startAll(slow, next)[0], told(20, next + 10_000, 24), 0, next + 5_000);
		expect(slow.waitMs(next + 10_000)).toBe(990);
		const timedOut = fourClients();
		// No answer within the Timeout (30 s): no round trip. The next request's answer tells anew.
		timedOut.ended(startAll(timedOut, next)[0], undefined, 0, next + 30_000);
		const after = next + 30_000;
		timedOut.ended(startAll(timedOut, after)[0], told(20, after + 10_000, 24), 0, after);
		expect(timedOut.waitMs(after + 10_000)).toBe(0);
	});

	it('shared with others, its share goes paced over the first half of the time to the reset', () => {
		const quota = fourClients();
		const at: number[] = [];
		expect(startAll(quota, T0, 100, at)).toHaveLength(2);
		// The last start (2 clients then, 20 remaining) set the next 10 s ÷ 10 ÷ 2 later; with 4
		// clients and 16 remaining, each after it goes the time to the reset ÷ 4 ÷ 2 later.
		expect(at).toEqual([T0 + 500, T0 + 500 + 9_500 / 4 / 2]);
	});

	it('an answer to a request started after the one that told, telling more remaining, is a window renewed before the reset reckoned', () => {
		const quota = new Quota();
		quota.ended(quota.start(T0), told(1, T0 + 1_000), 0, T0);
		const [after] = startAll(quota, T0 + 500);
		// The window was renewed before it (its reset told in whole seconds, rounded up): of 10, 9
		// remain, this request the first in it.
		quota.ended(after, told(9, T0 + 1_600, 10), 0, T0 + 600);
		expect(quota.reset?.at).toBe(T0 + 1_600);
		expect(startAll(quota, T0 + 600)).toHaveLength(5);
	});

	it('alone, nothing is paced: the budget goes at once', () => {
		const quota = heardOnce(20, T0 + 10_000);
		quota.ended(startAll(quota, T0)[0], told(19, T0 + 10_000, 20), 0, T0);
		const at: number[] = [];
		expect(startAll(quota, T0, 100, at)).toHaveLength(10);
		expect(new Set(at)).toEqual(new Set([T0]));
	});

	it('no share of a quota that resets later than the node waits: half of the budget goes, as alone', () => {
		const quota = heardOnce(0, T0);
		// Others; 3 remain until a reset an hour away. A share would hold this process back to
		// nothing, and the gate would fail its items unsent while the quota has room for them.
		quota.ended(startAll(quota, T0)[0], told(3, T0 + 3_600_000, 7), 0, T0);
		expect(startAll(quota, T0)).toHaveLength(2);
	});
});
