import { describe, expect, it } from 'vitest';

import {
	CongestionWindow,
	INITIAL_WINDOW,
	MAX_IN_FLIGHT,
} from '../nodes/TriggerAutomation/sending/congestionWindow';

/** `n` prompt answers (10 ms each), the k-th sent at time k·10. */
function acceptPromptly(window: CongestionWindow, n: number, from = 0): number {
	for (let k = 0; k < n; k++) window.accepted(from + k * 10, from + k * 10 + 10);
	return from + n * 10;
}

describe('the congestion window of Sending → Adaptive', () => {
	it('starts at a few requests and grows by two per prompt answer (tripling per round trip) until the first push-back', () => {
		const window = new CongestionWindow();
		expect(window.limit).toBe(INITIAL_WINDOW);
		acceptPromptly(window, 10);
		expect(window.limit).toBe(INITIAL_WINDOW + 20);
	});

	it('never exceeds the hard cap in flight', () => {
		const window = new CongestionWindow();
		acceptPromptly(window, 1000);
		expect(window.limit).toBe(MAX_IN_FLIGHT);
	});

	it('halves on a push-back, then grows by about one per window of answers (additive increase)', () => {
		const window = new CongestionWindow();
		const half = INITIAL_WINDOW / 2;
		window.pushedBack(0, 10);
		expect(window.limit).toBe(half);
		let now = acceptPromptly(window, half - 1, 20);
		expect(window.limit).toBe(half);
		now = acceptPromptly(window, 2, now);
		expect(window.limit).toBe(half + 1);
		acceptPromptly(window, half + 2, now);
		expect(window.limit).toBe(half + 2);
	});

	it('after a push-back with a Retry-After, starts again from one request and doubles back up to half the window', () => {
		const window = new CongestionWindow();
		const half = INITIAL_WINDOW / 2;
		window.pushedBack(0, 10, true);
		expect(window.limit).toBe(1);
		// More 429s to requests sent before it tell of the old window: no further change.
		window.pushedBack(5, 20, true);
		expect(window.limit).toBe(1);
		// Slow start again, one more per accepted answer (not two: other processes regrow too), up
		// to the threshold of half the window …
		const now = acceptPromptly(window, half - 1, 1_000);
		expect(window.limit).toBe(half);
		// … then about one per window of answers.
		acceptPromptly(window, 8, now);
		expect(window.limit).toBe(half);
	});

	it('decreases once per round trip: push-backs of requests sent before the last decrease do not count again', () => {
		const window = new CongestionWindow();
		// A window of requests in flight, all sent before the first 429 came back: one halving.
		for (let k = 0; k < INITIAL_WINDOW; k++) window.pushedBack(k, 100 + k);
		expect(window.limit).toBe(INITIAL_WINDOW / 2);
		// A request sent after that decrease is news: halve again.
		window.pushedBack(200, 250);
		expect(window.limit).toBe(INITIAL_WINDOW / 4);
	});

	it('shrinks by a quarter per round trip while answers slow down (over twice the usual time plus 100 ms), never below 1, and grows again once the service is steadily slower', () => {
		const window = new CongestionWindow();
		let now = acceptPromptly(window, 8); // usual 10 ms
		window.accepted(now, now + 500);
		expect(window.limit).toBe(Math.floor((INITIAL_WINDOW + 16) * 0.75));
		now += 1000;
		const limits: number[] = [];
		for (let k = 0; k < 60; k++) {
			window.accepted(now + k * 1000, now + k * 1000 + 500);
			limits.push(window.limit);
		}
		expect(Math.min(...limits)).toBe(1);
		expect(limits[limits.length - 1]).toBeGreaterThan(4);
		// Jitter of a fast service is not congestion: 10 → 100 ms still grows.
		const steady = new CongestionWindow();
		steady.accepted(0, 10);
		steady.accepted(20, 120);
		expect(steady.limit).toBe(INITIAL_WINDOW + 4);
	});
});
