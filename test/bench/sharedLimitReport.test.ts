/**
 * Issue 75's check of several processes (or queue-mode workers) at one limit
 * (bench/sharedLimitReport.ts), on scripted rounds: the median time at most 1.15× the ideal, every
 * item accepted once.
 */
import { describe, expect, it } from 'vitest';

import type { SharedLimitRun } from '../../bench/manyProcesses';
import type { SharedLimit } from '../../bench/sharedLimitReport';
import { sharedLimitCells, sharedLimitCheck } from '../../bench/sharedLimitReport';

const round = (over: Partial<SharedLimitRun> = {}): SharedLimitRun => ({
	seconds: 20.5,
	eachOnce: true,
	failed: 0,
	tooMany: 40,
	...over,
});

const limit = (runs: SharedLimitRun[]): SharedLimit => ({ label: '(w2)', runs, idealSeconds: 20 });

describe("issue 75's check of several processes at one limit", () => {
	it('the median round decides: one slow round of three does not miss, two do', () => {
		expect(sharedLimitCheck(limit([round(), round({ seconds: 30 }), round()])).met).toBe(true);
		const slow = limit([round({ seconds: 23.1 }), round({ seconds: 30 }), round()]);
		expect(sharedLimitCheck(slow)).toMatchObject({
			met: false,
			result: '1.16× (1.03–1.50), each item once',
		});
	});

	it('an item lost or failed in any round fails the check, whatever the time', () => {
		expect(sharedLimitCheck(limit([round({ eachOnce: false }), round()])).met).toBe(false);
		expect(sharedLimitCheck(limit([round({ failed: 1 })]))).toMatchObject({
			met: false,
			eachOnce: false,
		});
	});

	it("a row's cells: the time, the ideal, the ratio, the 429s, each item once", () => {
		const cells = sharedLimitCells(limit([round(), round({ seconds: 21.5, tooMany: 20 })]));
		expect(cells).toEqual(['21.0 s (20.5–21.5)', '20 s', '1.05× (1.03–1.08)', '30 (20–40)', 'yes']);
	});
});
