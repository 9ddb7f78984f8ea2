/**
 * What the two reports of several n8n processes at one limit share (bench/manyProcessesReport.ts,
 * bench/queueModeReport.ts): issue 53's three checks (time beside the ideal, informed refusals per
 * item, each process's share) and the table cells that show them.
 */
import type { SharedLimitRun } from './manyProcesses';
import { PROCESS_TARGET } from './manyProcesses';
import { noneStarved } from './processShares';
import type { Check } from './scenarioReport';
import { num, spread, summarize } from './stats';

/** A scenario's rounds and what it is measured against. */
export interface SharedLimit {
	label: string;
	runs: SharedLimitRun[];
	idealSeconds: number;
	items: number;
	/** What the time is counted from ("the start", "the first webhook call"). */
	from: string;
	/** What is counted per item ("429s per item", "refusals per item, nginx's log"). */
	refusals: string;
	/** Whose shares ("process", "worker") and when all of them sent ("all were", "both were"). */
	who: string;
	allWere: string;
	/** Added to the shares' result (e.g. how the executions were split). */
	sharesNote?: string;
}

export const allOnce = (runs: SharedLimitRun[]) =>
	runs.every((run) => run.eachOnce && run.failed === 0);
const allShares = (runs: SharedLimitRun[]) => runs.flatMap((run) => run.shares);
const most = (runs: SharedLimitRun[], f: (run: SharedLimitRun) => number) =>
	Math.max(...runs.map(f));

export function sharedLimitChecks(s: SharedLimit): Check[] {
	const { maxTimeVsIdeal, maxInformedPerItem, share } = PROCESS_TARGET;
	const slowest = most(s.runs, (r) => r.seconds);
	const informed = most(s.runs, (r) => r.informed);
	const all = allOnce(s.runs);
	const shares = allShares(s.runs);
	return [
		{
			label: `${s.label}: every item accepted once, time from ${s.from} to the last answer ÷ the ideal (items ÷ limit; the slowest round)`,
			result: `${all ? 'all accepted once' : '**not all accepted once**'}, ${slowest.toFixed(1)} s, ${(slowest / s.idealSeconds).toFixed(2)}× the ideal ${num(s.idealSeconds)} s`,
			target: `all, ≤ ${maxTimeVsIdeal}× the ideal`,
			met: all && slowest / s.idealSeconds <= maxTimeVsIdeal,
		},
		{
			label: `${s.label}: informed ${s.refusals} (the most of any round)`,
			result: `${(informed / s.items).toFixed(2)} (${informed} of ${num(s.items)} items)`,
			target: `≤ ${maxInformedPerItem}`,
			met: informed / s.items <= maxInformedPerItem,
		},
		{
			label: `${s.label}: each ${s.who}'s share of the accepted requests while ${s.allWere} sending, in equal shares (every ${s.who}, every round)`,
			result: `${Math.min(...shares).toFixed(2)}–${Math.max(...shares).toFixed(2)}×${s.sharesNote ? `; ${s.sharesNote}` : ''}`,
			target: `${share.low}–${share.high}×`,
			met: s.runs.every((run) => noneStarved(run.shares, share.low, share.high)),
		},
	];
}

/** The cells of a row from its seconds to its informed per item: seconds, ideal, ÷ ideal, the
 * refusals (blind, informed), informed per item. */
export function sharedLimitCells(s: SharedLimit): string[] {
	const of = (f: (r: SharedLimitRun) => number) => summarize(s.runs.map(f));
	const median = (f: (r: SharedLimitRun) => number) => num(of(f).median);
	return [
		spread(
			of((r) => r.seconds),
			1,
			' s',
		),
		`${num(s.idealSeconds)} s`,
		spread(
			of((r) => r.seconds / s.idealSeconds),
			2,
			'×',
		),
		`${median((r) => r.tooMany)} (${median((r) => r.blind)}, ${median((r) => r.informed)})`,
		spread(
			of((r) => r.informed / s.items),
			2,
		),
	];
}

/** The shares cell: lowest–highest of every process in every round, and when the window ended. */
export function sharesCell(s: SharedLimit): string {
	const shares = allShares(s.runs);
	const windowEnd = spread(summarize(s.runs.map((r) => r.windowEndS)), 1, ' s');
	return `${Math.min(...shares).toFixed(2)}–${Math.max(...shares).toFixed(2)}×, to ${windowEnd}`;
}
