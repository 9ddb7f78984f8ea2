/**
 * The report of quotas told by real limiters (bench/realLimitersReport.ts): the ideal time, the
 * medians of a case's rounds, and the checks over each workload on scripted runs.
 */
import { describe, expect, it } from 'vitest';

import type { QuotaSide, RealCase, RealRun } from '../../bench/realLimitersRun';
import { caseFigures, idealSeconds, realChecks, realTable } from '../../bench/realLimitersReport';

const side = (id: string): QuotaSide => ({
	id,
	limiter: 'limiter 1.0.0',
	mode: 'mode',
	start: () => Promise.reject(new Error('not started in a test')),
});
const quota = { limit: 20, windowMs: 1000 };
const run = (seconds: number, tooMany = 0, late = 0, eachOnce = true): RealRun => ({
	seconds,
	tooMany,
	late,
	eachOnce,
});

describe('quotas told by real limiters: the report', () => {
	it('the ideal time is items ÷ limit windows', () => {
		expect(idealSeconds({ limit: 20, windowMs: 1000 }, 100)).toBe(5);
		expect(idealSeconds({ limit: 40, windowMs: 2000 }, 100)).toBe(5);
		expect(idealSeconds({ limit: 10, windowMs: 1000 }, 100)).toBe(10);
	});

	it("a case's figures are the medians of its rounds; each item once only if in every round", () => {
		const c: RealCase = { side: side('a'), quota, workload: 'one' };
		const f = caseFigures(c, [run(5.0, 80, 0), run(6.0, 90, 2), run(5.5, 100, 1, false)]);
		expect(f.seconds.median).toBe(5.5);
		expect(f.vsIdeal).toBeCloseTo(1.1);
		expect(f.tooMany).toBe(90);
		expect(f.late).toBe(1);
		// The late ones per item: 1 of 100.
		expect(f.perItem).toBeCloseTo(0.01);
		expect(f.eachOnce).toBe(false);
	});

	it('checks each workload against its targets and names the sides that missed', () => {
		const cases: RealCase[] = [
			{ side: side('a'), quota, workload: 'one' },
			{ side: side('b'), quota, workload: 'one' },
			{ side: side('a'), quota, workload: 'processes' },
		];
		const result = [
			[run(5.2), run(5.3), run(5.4)],
			[run(6.5, 10, 1), run(7, 10, 1), run(7.5, 10, 1)],
			[run(5.7, 40, 19), run(5.6, 40, 21), run(5.75, 40, 20)],
		];
		const checks = realChecks(cases, result);
		expect(checks.map((c) => c.met)).toEqual([false, false, true, true, true]);
		expect(checks[0].result).toBe('worst 1.40 (b); 1 of 2 met; missed: b');
		expect(checks[1].result).toBe('worst 1 (b); 1 of 2 met; missed: b');
		expect(checks[2].target).toBe('≤ 1.15×');
		expect(checks[3].result).toBe('worst 0.20 (a); 1 of 1 met');
		expect(checks[4].result).toBe('all, every round');
	});

	it('the table: a row per limiter and mode, a column per workload and quota', () => {
		const cases: RealCase[] = [
			{ side: side('a'), quota, workload: 'one' },
			{ side: side('a'), quota, workload: 'processes' },
			{ side: side('b'), quota, workload: 'one' },
		];
		const lines = realTable(cases, [[run(5.2, 3, 1)], [run(5.5, 20)], [run(6, 0, 0, false)]]).split(
			'\n',
		);
		expect(lines).toHaveLength(4);
		expect(lines[0]).toBe(
			'| Limiter | Mode | one execution of 100 items, 20 per 1 s | 4 processes × 5 executions × 5 items at once, 20 per 1 s |',
		);
		expect(lines[2]).toBe(
			'| limiter 1.0.0 | mode | 5.20 s, 1.04×, 3 (1) | 5.50 s, 1.10×, 20 (0) |',
		);
		expect(lines[3]).toBe(
			'| limiter 1.0.0 | mode | 6.00 s, 1.20×, 0 (0), **not each item once** | — |',
		);
	});
});
