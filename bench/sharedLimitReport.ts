/**
 * What the two reports of several n8n processes at one limit share (bench/manyProcessesReport.ts,
 * bench/queueModeReport.ts): issue 75's check (every item accepted once, the median time at most
 * 1.15× the ideal) and the table cells that show the rounds.
 */
import type { SharedLimitRun } from './manyProcesses';
import { MAX_VS_IDEAL_PROCESSES } from './manyProcesses';
import type { Check } from './scenarioReport';
import { num, spread, summarize } from './stats';

/** A scenario's rounds and what it is measured against. */
export interface SharedLimit {
	label: string;
	runs: SharedLimitRun[];
	idealSeconds: number;
}

export const allOnce = (runs: SharedLimitRun[]) =>
	runs.every((run) => run.eachOnce && run.failed === 0);

const vsIdeal = (s: SharedLimit) => summarize(s.runs.map((r) => r.seconds / s.idealSeconds));

export function sharedLimitCheck(s: SharedLimit): Check {
	const ratio = vsIdeal(s);
	const once = allOnce(s.runs);
	return {
		label: `${s.label}: time ÷ ideal ${num(s.idealSeconds)} s`,
		result: `${spread(ratio, 2, '×')}, ${once ? 'each item once' : '**not each item once**'}`,
		target: `≤ ${MAX_VS_IDEAL_PROCESSES}×`,
		met: once && ratio.median <= MAX_VS_IDEAL_PROCESSES,
		eachOnce: once,
	};
}

/** A row's cells after its label: time, ideal, ÷ ideal, 429s, each item once. */
export function sharedLimitCells(s: SharedLimit): string[] {
	return [
		spread(summarize(s.runs.map((r) => r.seconds)), 1, ' s'),
		`${num(s.idealSeconds)} s`,
		spread(vsIdeal(s), 2, '×'),
		spread(summarize(s.runs.map((r) => r.tooMany))),
		allOnce(s.runs) ? 'yes' : '**no**',
	];
}

export const SHARED_LIMIT_HEAD = ['time', 'ideal', '÷ ideal', '429s', 'each item once'];
