/**
 * Whether a process starved (bench/processShares.ts), on scripted acceptance times: shares are
 * counted while every process still had items to send, up to the first process's last accepted
 * request, in equal shares.
 */
import { describe, expect, it } from 'vitest';

import { noneStarved, processShares } from '../../bench/processShares';

describe('each process share while all were sending', () => {
	it('a process that had all its items accepted first, while the other waited, shows the other starved', () => {
		// Process 1: 10 accepted in the first second; process 2: none until then, 10 after.
		const first = Array.from({ length: 10 }, (_, i) => i * 100);
		const second = Array.from({ length: 10 }, (_, i) => 1000 + i * 100);
		const { windowEndMs, shares } = processShares([first, second]);
		expect(windowEndMs).toBe(900);
		expect(shares).toEqual([2, 0]);
		expect(noneStarved(shares)).toBe(false);
	});

	it('processes served in turn have equal shares, however their times are listed', () => {
		const a = [100, 300, 500, 700];
		const b = [600, 400, 200, 0, 800];
		expect(processShares([a, b])).toEqual({ windowEndMs: 700, shares: [1, 1] });
	});

	it('requests accepted after the first process finished are not counted', () => {
		const a = [0, 10, 20];
		const b = [5, 15, 25, 30, 40, 50];
		const c = [1, 2, 3, 4, 21, 60];
		// Up to 20 ms: a 3, b 2, c 4 of 9 → 3/9 × 3 = 1, 2/3, 4/3.
		const { shares } = processShares([a, b, c]);
		expect(shares.map((s) => Number(s.toFixed(3)))).toEqual([1, 0.667, 1.333]);
		expect(noneStarved(shares)).toBe(true);
	});

	it('a process with no request accepted has share 0, and the window ends with the first that finished', () => {
		expect(processShares([[0, 100], [], [50, 300]])).toEqual({
			windowEndMs: 100,
			shares: [2, 0, 1],
		});
		expect(() => processShares([[], []])).toThrow('No process');
	});

	it('a share within 0.5 to 2 equal shares is not starved; outside it is, at either end', () => {
		expect(noneStarved([0.5, 1.5])).toBe(true);
		expect(noneStarved([2, 0.5, 0.5, 1])).toBe(true);
		expect(noneStarved([0.49, 1.51])).toBe(false);
		expect(noneStarved([2.01, 0.99, 0.5, 0.5])).toBe(false);
	});
});
