import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { TurnAwayLog } from '../../dev/turnAwayLog';

describe("the terminal's line for what the simulator turns away", () => {
	beforeEach(() => {
		vi.useFakeTimers({ now: new Date(2026, 10, 27, 18, 55, 3) });
	});
	afterEach(() => {
		vi.useRealTimers();
	});

	it('the first turn-away at once, then at most one line a second, with the counts by reason', () => {
		const lines: string[] = [];
		const log = new TurnAwayLog((line) => lines.push(line));
		log.turnedAway('busy spell');
		expect(lines).toEqual([
			'18:55:03 Simulator: turned away 1 request with 429, Retry-After: 1 (1 by the busy spell)',
		]);
		for (let n = 0; n < 40; n++) {
			vi.advanceTimersByTime(20);
			log.turnedAway(n < 30 ? 'busy spell' : 'rate limit');
		}
		// 800 ms after the first line: still one line.
		expect(lines).toHaveLength(1);
		vi.advanceTimersByTime(200);
		expect(lines).toEqual([
			'18:55:03 Simulator: turned away 1 request with 429, Retry-After: 1 (1 by the busy spell)',
			'18:55:04 Simulator: turned away 40 requests with 429, Retry-After: 1 (30 by the busy spell, 10 by the rate limit)',
		]);
		// Quiet: nothing more, and the next turn-away, a second later, again at once.
		vi.advanceTimersByTime(5_000);
		expect(lines).toHaveLength(2);
		log.turnedAway('simulated failure');
		expect(lines[2]).toBe(
			'18:55:09 Simulator: turned away 1 request with 429, Retry-After: 1 (1 by the simulated failure)',
		);
	});

	it('what is left untold is printed at a stop', () => {
		const lines: string[] = [];
		const log = new TurnAwayLog((line) => lines.push(line));
		log.turnedAway('rate limit');
		log.turnedAway('rate limit');
		log.flush();
		expect(lines.map((line) => line.slice(9))).toEqual([
			'Simulator: turned away 1 request with 429, Retry-After: 1 (1 by the rate limit)',
			'Simulator: turned away 1 request with 429, Retry-After: 1 (1 by the rate limit)',
		]);
		log.flush();
		expect(lines).toHaveLength(2);
	});
});
