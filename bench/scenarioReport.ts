/**
 * The report's part for issue 75's scenarios at a limit (bench/defaults.ts) and the large execution
 * (bench/largeExecution.ts): each scenario's median time ÷ its ideal, its 429s beside the AWS SDK
 * limiter's on the same work, every item accepted once; the table of both sides' rounds.
 */
import type { BenchSide, DefaultsResult, DefaultsRun, Scenario } from './defaults';
import { BENCH_SIDES, SCENARIOS, SERVICE_DELAY_MS } from './defaults';
import type { LargeRun } from './largeExecution';
import { LARGE_DELAY_MS, LARGE_ITEMS } from './largeExecution';
import { num, spread, summarize } from './stats';

export interface Check {
	label: string;
	result: string;
	target: string;
	met?: boolean;
	/** Whether every item of the runs it checks was accepted exactly once (issue 75's last target). */
	eachOnce?: boolean;
}

/** Issue 75: 50,000 items at 1,500/s or more within 1 GiB (peak RSS of the process). */
export const LARGE_TARGET = { perSecond: 1500, peakRssMiB: 1024 };

export const SIDE_NAMES: Record<BenchSide, string> = {
	node: 'Trigger Automation',
	aws: 'AWS SDK limiter',
};

const median = (runs: DefaultsRun[], f: (r: DefaultsRun) => number) =>
	summarize(runs.map(f)).median;
const allOnce = (runs: DefaultsRun[]) => runs.every((run) => run.eachOnce);

/** The scenario's name in a row, with the answer time where it is not the usual 50 ms. */
const nameOf = (scenario: Scenario, delayMs: number) =>
	`(${scenario.id}) ${scenario.label}${delayMs === SERVICE_DELAY_MS ? '' : `, ${delayMs} ms answers`}`;

/** Two checks of one scenario at one answer time: the time ÷ the ideal, the 429s beside AWS's. */
export function scenarioCheck(
	scenario: Scenario,
	delayMs: number,
	result: DefaultsResult,
): Check[] {
	const { node, aws } = result[scenario.id][delayMs];
	const name = nameOf(scenario, delayMs);
	const vsIdeal = summarize(node!.map((r) => r.seconds / scenario.idealSeconds));
	const once = allOnce(node!);
	const checks: Check[] = [
		{
			label: `${name}: time ÷ ideal ${num(scenario.idealSeconds)} s`,
			result: `${spread(vsIdeal, 2, '×')}, ${once ? 'each item once' : '**not each item once**'}`,
			target: `≤ ${scenario.maxVsIdeal}×`,
			met: once && vsIdeal.median <= scenario.maxVsIdeal,
			eachOnce: once,
		},
	];
	if (aws) {
		const ours = median(node!, (r) => r.tooMany);
		const theirs = median(aws, (r) => r.tooMany);
		checks.push({
			label: `${name}: 429s in all (median), beside the AWS SDK limiter's`,
			result: `${num(ours)}; AWS SDK limiter ${num(theirs)}`,
			target: "≤ the AWS SDK limiter's",
			met: ours <= theirs,
		});
	}
	return checks;
}

/** The checks of every scenario that ran, in SCENARIOS' order. */
export function scenarioChecks(result: DefaultsResult): Check[] {
	return SCENARIOS.flatMap((scenario) =>
		Object.keys(result[scenario.id] ?? {}).flatMap((key) =>
			scenarioCheck(scenario, Number(key), result),
		),
	);
}

const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
export const table = (head: string[], rows: string[][]) =>
	[row(head), row(head.map(() => '---')), ...rows.map(row)].join('\n');

/** Both sides' rounds of every scenario that ran: medians, min–max in brackets. */
export function scenarioTable(result: DefaultsResult): string {
	const rows: string[][] = [];
	for (const scenario of SCENARIOS) {
		for (const [key, bySide] of Object.entries(result[scenario.id] ?? {})) {
			for (const side of BENCH_SIDES) {
				const runs = bySide[side];
				if (!runs) continue;
				const range = (f: (r: DefaultsRun) => number, digits = 0, unit = '') =>
					spread(summarize(runs.map(f)), digits, unit);
				rows.push([
					nameOf(scenario, Number(key)),
					SIDE_NAMES[side],
					range((r) => r.seconds, 1, ' s'),
					range((r) => r.seconds / scenario.idealSeconds, 2, '×'),
					range((r) => r.tooMany),
					range((r) => r.mostInFlight),
					allOnce(runs) ? 'yes' : '**no**',
				]);
			}
		}
	}
	const head = ['Scenario', 'Side', 'time', '÷ ideal', '429s', 'most in flight', 'each item once'];
	return table(head, rows);
}

export function largeCheck(runs: LargeRun[]): Check {
	const perSecond = summarize(runs.map((r) => r.itemsPerSecond));
	const peak = summarize(runs.map((r) => r.peakRss / 2 ** 20));
	const once = runs.every((r) => r.eachOnce);
	return {
		label: `(i) one execution of ${num(LARGE_ITEMS)} items, no limit, ${LARGE_DELAY_MS} ms answers: items/s, peak RSS`,
		result: `${spread(perSecond)}/s, ${spread(peak, 0, ' MiB')}${once ? '' : ', **not each item once**'}`,
		target: `≥ ${num(LARGE_TARGET.perSecond)}/s, ≤ ${num(LARGE_TARGET.peakRssMiB)} MiB`,
		met:
			once && perSecond.median >= LARGE_TARGET.perSecond && peak.median <= LARGE_TARGET.peakRssMiB,
		eachOnce: once,
	};
}

export function largeSection(runs: LargeRun[]): string {
	const mib = (f: (r: LargeRun) => number) => spread(summarize(runs.map(f)), 0, ' MiB');
	return `One execution of ${num(LARGE_ITEMS)} items, Start (items pinned) → Trigger Automation at its defaults, ${LARGE_DELAY_MS} ms answers, no limit, in n8n-core's engine in a fresh process per run (after a warm-up run of 1,000 items), so that the peak RSS (the kernel's VmHWM, reset at the baseline) is that one process's. ${runs.length} run${runs.length === 1 ? '' : 's'}: ${spread(summarize(runs.map((r) => r.itemsPerSecond)))} items/s; RSS before the run ${mib((r) => r.rssBefore / 2 ** 20)}, peak ${mib((r) => r.peakRss / 2 ** 20)}.`;
}
