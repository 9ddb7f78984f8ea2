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
	it('starts at a few requests and grows by one per prompt answer until the first push-back', () => {
		const window = new CongestionWindow();
		expect(window.limit).toBe(INITIAL_WINDOW);
		acceptPromptly(window, 10);
		expect(window.limit).toBe(INITIAL_WINDOW + 10);
	});

	it('never exceeds the hard cap in flight', () => {
		const window = new CongestionWindow();
		acceptPromptly(window, 1000);
		expect(window.limit).toBe(MAX_IN_FLIGHT);
	});

	it('halves on a push-back, then grows by about one per window of answers (additive increase)', () => {
		const window = new CongestionWindow();
		let now = acceptPromptly(window, 32 - INITIAL_WINDOW);
		window.pushedBack(now, now + 10);
		expect(window.limit).toBe(16);
		now = acceptPromptly(window, 15, now + 20);
		expect(window.limit).toBe(16);
		now = acceptPromptly(window, 2, now);
		expect(window.limit).toBe(17);
		acceptPromptly(window, 18, now);
		expect(window.limit).toBe(18);
	});

	it('after a push-back with a Retry-After, starts again from one request and doubles back up to half the window', () => {
		const window = new CongestionWindow();
		let now = acceptPromptly(window, 32 - INITIAL_WINDOW);
		window.pushedBack(now, now + 10, true);
		expect(window.limit).toBe(1);
		// More 429s to requests sent before it tell of the old window: no further change.
		window.pushedBack(now + 5, now + 20, true);
		expect(window.limit).toBe(1);
		// Slow start: one more per accepted answer, up to the threshold of 16 …
		now = acceptPromptly(window, 15, now + 1_000);
		expect(window.limit).toBe(16);
		// … then about one per window of answers.
		acceptPromptly(window, 8, now);
		expect(window.limit).toBe(16);
	});

	it('decreases once per round trip: push-backs of requests sent before the last decrease do not count again', () => {
		const window = new CongestionWindow();
		const now = acceptPromptly(window, 32 - INITIAL_WINDOW);
		// 32 requests in flight, all sent before the first 429 came back: one halving, not 32.
		for (let k = 0; k < 32; k++) window.pushedBack(now + k, now + 100 + k);
		expect(window.limit).toBe(16);
		// A request sent after that decrease is news: halve again.
		window.pushedBack(now + 200, now + 250);
		expect(window.limit).toBe(8);
	});

	it('shrinks by a quarter per round trip while answers slow down (over twice the usual time plus 100 ms), never below 1, and grows again once the service is steadily slower', () => {
		const window = new CongestionWindow();
		let now = acceptPromptly(window, 8); // usual 10 ms
		window.accepted(now, now + 500);
		expect(window.limit).toBe(Math.floor((INITIAL_WINDOW + 8) * 0.75));
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
		expect(steady.limit).toBe(INITIAL_WINDOW + 2);
	});
});
