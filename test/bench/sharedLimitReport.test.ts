/**
 * Issue 53's checks of several processes at one limit (bench/sharedLimitReport.ts), on scripted
 * rounds: the worst round decides, and each check fails on its own.
 */
import { describe, expect, it } from 'vitest';

import type { SharedLimitRun } from '../../bench/manyProcesses';
import type { SharedLimit } from '../../bench/sharedLimitReport';
import { sharedLimitCells, sharedLimitChecks } from '../../bench/sharedLimitReport';

const round = (over: Partial<SharedLimitRun> = {}): SharedLimitRun => ({
	seconds: 20.5,
	eachOnce: true,
	failed: 0,
	tooMany: 40,
	blind: 30,
	informed: 10,
	shares: [0.9, 1.1],
	windowEndS: 18,
	...over,
});

const limit = (runs: SharedLimitRun[]): SharedLimit => ({
	label: '(w2)',
	runs,
	idealSeconds: 20,
	items: 100,
	from: 'the start',
	refusals: '429s per item',
	who: 'process',
	allWere: 'all were',
});

const met = (runs: SharedLimitRun[]) => sharedLimitChecks(limit(runs)).map((check) => check.met);

describe("issue 53's checks of several processes at one limit", () => {
	it('rounds within every target meet all three checks', () => {
		expect(met([round(), round({ seconds: 21 })])).toEqual([true, true, true]);
	});

	it('the worst round decides: one slow round, one with many informed 429s, one starved process', () => {
		expect(met([round(), round({ seconds: 23.1 })])).toEqual([false, true, true]);
		expect(met([round(), round({ informed: 31 })])).toEqual([true, false, true]);
		expect(met([round(), round({ shares: [0.4, 1.6] })])).toEqual([true, true, false]);
	});

	it('an item lost or failed fails the time check, whatever the time', () => {
		expect(met([round({ eachOnce: false })])[0]).toBe(false);
		expect(met([round({ failed: 1 })])[0]).toBe(false);
	});

	it("a row's cells: the median seconds, the ideal, the ratio, the 429s (blind, informed), informed per item", () => {
		const cells = sharedLimitCells(limit([round(), round({ seconds: 21.5, informed: 20 })]));
		expect(cells[1]).toBe('20 s');
		expect(cells[3]).toBe('40 (30, 15)');
		expect(cells).toHaveLength(5);
	});
});
