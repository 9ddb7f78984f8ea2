/**
 * The Summary's rows of the scenarios at the defaults (bench/scenarioReport.ts), on scripted runs:
 * informed 429s in the real app are checked per item against issue 53's 0.1, each scenario's
 * worst round, the second burst of (l) on its own.
 */
import { describe, expect, it } from 'vitest';

import type { DefaultsResult, DefaultsRun } from '../../bench/defaults';
import { scenarioChecks } from '../../bench/scenarioReport';

/** An accepted run of `items` with `informed` informed 429s; the rest of its figures unremarkable. */
function run(items: number, informed: number, second?: DefaultsRun): DefaultsRun {
	return {
		seconds: 10,
		itemsPerSecond: items / 10,
		acceptedPerSecond: items / 10,
		accepted: items,
		eachOnce: true,
		failed: 0,
		tooMany: informed + 1,
		blind: 1,
		informed,
		mostInFlight: 1,
		arrivals: [],
		second,
	};
}

const informedRow = (result: DefaultsResult, delayMs: number) =>
	scenarioChecks(result).find((check) =>
		check.label.startsWith(
			`Every limited scenario in the real n8n app at the defaults, ${delayMs} ms`,
		),
	);

describe('informed 429s per item in the real app', () => {
	it('a scenario whose worst round passes 0.1 per item misses, though its median does not', () => {
		// (c): 50 items; (e): 200 items.
		const result: DefaultsResult = {
			c: { 50: { node: [run(50, 2), run(50, 6), run(50, 3)] } },
			e: { 50: { node: [run(200, 4), run(200, 5)] } },
		};
		const row = informedRow(result, 50)!;
		expect(row.result).toBe('(c) 0.12; (e) 0.03');
		expect(row.met).toBe(false);
	});

	it('every scenario at or under 0.1 per item in every round meets it, a row per answer time', () => {
		const result: DefaultsResult = {
			c: { 50: { node: [run(50, 5)] }, 20: { node: [run(50, 1)] } },
			d: { 50: { node: [run(100, 10)] } },
		};
		expect(informedRow(result, 50)).toMatchObject({ result: '(c) 0.10; (d) 0.10', met: true });
		expect(informedRow(result, 20)).toMatchObject({ result: '(c) 0.02', met: true });
	});

	it("(l)'s second burst is checked on its own", () => {
		const result: DefaultsResult = {
			l: { 50: { node: [run(500, 5, run(500, 60))] } },
		};
		const row = informedRow(result, 50)!;
		expect(row.result).toBe('(l) 0.01; (l) again 0.12');
		expect(row.met).toBe(false);
	});

	it('a scenario without a limit has no such figure', () => {
		const result: DefaultsResult = { f: { 50: { node: [run(200, 0)], httpNode: [run(200, 0)] } } };
		expect(informedRow(result, 50)).toBeUndefined();
	});
});
