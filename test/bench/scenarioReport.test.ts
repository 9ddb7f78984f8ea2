/**
 * The Summary's rows of issue 75's scenarios at a limit (bench/scenarioReport.ts), on scripted
 * runs: the median time ÷ the scenario's ideal against its bound, every item accepted once, and
 * the 429s in all against the AWS SDK limiter's on the same work.
 */
import { describe, expect, it } from 'vitest';

import type { DefaultsResult, DefaultsRun } from '../../bench/defaults';
import { SCENARIOS } from '../../bench/defaults';
import { scenarioChecks } from '../../bench/scenarioReport';

const run = (seconds: number, tooMany = 0, eachOnce = true): DefaultsRun => ({
	seconds,
	accepted: 200,
	eachOnce,
	failed: eachOnce ? 0 : 1,
	tooMany,
	mostInFlight: 10,
});

const scenario = (id: string) => SCENARIOS.find((s) => s.id === id)!;

describe("issue 75's scenarios: the checks", () => {
	it('every scenario states its ideal; a token bucket is held to 1.15×, a limit that moves to 1.2×', () => {
		expect(scenario('c').idealSeconds).toBe(20);
		expect(scenario('e').idealSeconds).toBe(10);
		expect(scenario('g').idealSeconds).toBe(5);
		expect(scenario('nginx').idealSeconds).toBe(10);
		expect(scenario('h').idealSeconds).toBe(10);
		expect(scenario('j').idealSeconds).toBe(14);
		expect(scenario('k').idealSeconds).toBe(17);
		expect(['c', 'e', 'g', 'nginx'].map((id) => scenario(id).maxVsIdeal)).toEqual([
			1.15, 1.15, 1.15, 1.15,
		]);
		expect(['h', 'j', 'k'].map((id) => scenario(id).maxVsIdeal)).toEqual([1.2, 1.2, 1.2]);
	});

	it('the median time of the rounds decides, not the slowest', () => {
		// (e): ideal 10 s, at most 11.5 s.
		const result: DefaultsResult = {
			e: { 50: { node: [run(11), run(11.4), run(14)], aws: [run(12, 100)] } },
		};
		const [time] = scenarioChecks(result);
		expect(time.result).toBe('1.14× (1.10–1.40), each item once');
		expect(time.met).toBe(true);
		result.e[50].node = [run(11.6), run(11.6), run(9)];
		expect(scenarioChecks(result)[0].met).toBe(false);
	});

	it('an item lost or doubled in any round fails the time check, whatever the time', () => {
		const result: DefaultsResult = {
			e: { 50: { node: [run(10), run(10, 0, false), run(10)], aws: [run(12)] } },
		};
		expect(scenarioChecks(result)[0]).toMatchObject({ met: false, eachOnce: false });
	});

	it("429s in all: Trigger Automation's median at most the AWS SDK limiter's", () => {
		const result: DefaultsResult = {
			h: {
				50: {
					node: [run(10, 70), run(10, 72), run(10, 90)],
					aws: [run(19, 500), run(19, 71), run(19, 509)],
				},
			},
		};
		const [, tooMany] = scenarioChecks(result);
		expect(tooMany).toMatchObject({ result: '72; AWS SDK limiter 500', met: true });
		result.h[50].aws = [run(19, 71)];
		expect(scenarioChecks(result)[1].met).toBe(false);
	});

	it('without the AWS side there is no 429 row; another answer time is named in the label', () => {
		const result: DefaultsResult = { c: { 20: { node: [run(21)] } } };
		const checks = scenarioChecks(result);
		expect(checks).toHaveLength(1);
		expect(checks[0].label).toContain('20 ms answers');
	});
});
