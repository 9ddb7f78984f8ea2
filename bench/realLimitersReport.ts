/**
 * The report's part for quotas told by real limiters (bench/realLimitersRun.ts): per limiter ×
 * mode × workload, the time beside the ideal, the 429s, those a process had had time to avoid,
 * every item accepted once; and the checks of issue 75 over each workload.
 */
import type { Quota, RealCase, RealRun, WorkloadId } from './realLimitersRun';
import { READ_MARGIN_MS, WORKLOADS, itemsOf } from './realLimitersRun';
import type { Check } from './scenarioReport';
import { table } from './scenarioReport';
import { num, summarize } from './stats';

export const REAL_TARGET = {
	/** Time ÷ ideal, one process … */
	timeVsIdeal: 1.1,
	/** … and 4 processes. */
	timeVsIdealProcesses: 1.15,
	/** One process: 429s to requests sent READ_MARGIN_MS or more after it read the quota. */
	late: 0,
	/** 4 processes: 429s in all per item. */
	perItemProcesses: 0.2,
};

/**
 * The time the quota itself needs for `items`: items ÷ limit windows (100 items at 20 per 1 s:
 * 5 s). A client that sends each window's share at its start ends a window sooner, plus one answer
 * time, so a ratio a little below 1 is possible.
 */
export const idealSeconds = (quota: Quota, items: number) =>
	((items / quota.limit) * quota.windowMs) / 1000;

const quotaLabel = (q: Quota) => `${q.limit} per ${q.windowMs / 1000} s`;

/** Medians of one case's rounds; every round must have accepted each item once. */
export function caseFigures(c: RealCase, runs: RealRun[]) {
	const median = (f: (r: RealRun) => number) => summarize(runs.map(f)).median;
	const items = itemsOf(c.workload);
	return {
		seconds: summarize(runs.map((r) => r.seconds)),
		vsIdeal: median((r) => r.seconds) / idealSeconds(c.quota, items),
		tooMany: median((r) => r.tooMany),
		late: median((r) => r.late),
		// Across processes, as in one: the 429s to requests sent after their process read the quota.
		perItem: median((r) => r.late) / items,
		eachOnce: runs.every((r) => r.eachOnce),
	};
}
type Figures = ReturnType<typeof caseFigures>;

/**
 * A row per limiter and mode, a column per workload and quota; each cell: the median time, ÷ the
 * ideal, the 429s and, in brackets, those to requests sent READ_MARGIN_MS or more after the read.
 */
export function realTable(cases: RealCase[], result: RealRun[][]): string {
	const columns: string[] = [];
	const rows = new Map<string, string[]>();
	cases.forEach((c, i) => {
		const column = `${WORKLOADS[c.workload].label}, ${quotaLabel(c.quota)}`;
		if (!columns.includes(column)) columns.push(column);
		const key = c.side.id;
		const row = rows.get(key) ?? rows.set(key, [c.side.limiter, c.side.mode]).get(key)!;
		const f = caseFigures(c, result[i]);
		row[2 + columns.indexOf(column)] =
			`${num(f.seconds.median, 2)} s, ${f.vsIdeal.toFixed(2)}×, ${num(f.tooMany)} (${num(f.late)})` +
			(f.eachOnce ? '' : ', **not each item once**');
	});
	return table(
		['Limiter', 'Mode', ...columns],
		[...rows.values()].map((row) =>
			Array.from({ length: 2 + columns.length }, (_, i) => row[i] ?? '—'),
		),
	);
}

/** The worst case of a group by `of`, and how many of the group met `met`. */
function worst(
	group: Array<{ id: string; f: Figures }>,
	of: (f: Figures) => number,
	met: (f: Figures) => boolean,
	digits: number,
): { result: string; met: boolean } {
	const top = group.reduce((a, b) => (of(b.f) > of(a.f) ? b : a));
	const meeting = group.filter(({ f }) => met(f)).length;
	const missed = group.filter(({ f }) => !met(f)).map(({ id }) => id);
	return {
		result: `worst ${of(top.f).toFixed(digits)} (${top.id}); ${meeting} of ${group.length} met${missed.length ? `; missed: ${missed.join(', ')}` : ''}`,
		met: meeting === group.length,
	};
}

/** Per workload and quota: time ÷ ideal, the 429s' target, and every item accepted once overall. */
export function realChecks(cases: RealCase[], result: RealRun[][]): Check[] {
	const groups = new Map<string, Array<{ id: string; f: Figures; workload: WorkloadId }>>();
	cases.forEach((c, i) => {
		const key = `${WORKLOADS[c.workload].label}, ${quotaLabel(c.quota)}`;
		const list = groups.get(key) ?? groups.set(key, []).get(key)!;
		list.push({ id: c.side.id, f: caseFigures(c, result[i]), workload: c.workload });
	});
	const checks: Check[] = [];
	for (const [key, group] of groups) {
		const many = group[0].workload === 'processes';
		const maxRatio = many ? REAL_TARGET.timeVsIdealProcesses : REAL_TARGET.timeVsIdeal;
		const at = `Real limiters, ${key}`;
		const time = worst(
			group,
			(f) => f.vsIdeal,
			(f) => f.vsIdeal <= maxRatio,
			2,
		);
		checks.push({ label: `${at}: time ÷ ideal (median)`, target: `≤ ${maxRatio}×`, ...time });
		const tooMany = many
			? worst(
					group,
					(f) => f.perItem,
					(f) => f.perItem <= REAL_TARGET.perItemProcesses,
					2,
				)
			: worst(
					group,
					(f) => f.late,
					(f) => f.late <= REAL_TARGET.late,
					0,
				);
		checks.push({
			label: many
				? `${at}: 429s to requests sent ≥ ${READ_MARGIN_MS} ms after their process read the quota, per item (median)`
				: `${at}: 429s to requests sent ≥ ${READ_MARGIN_MS} ms after the quota was read (median)`,
			target: many ? `≤ ${REAL_TARGET.perItemProcesses}` : `${REAL_TARGET.late}`,
			...tooMany,
		});
	}
	const notOnce = cases.filter((_, i) => !result[i].every((r) => r.eachOnce));
	checks.push({
		label: 'Real limiters: every item accepted exactly once',
		result: notOnce.length
			? `**not in ${notOnce.map((c) => `${c.side.id} ${c.workload}`).join(', ')}**`
			: 'all, every round',
		target: 'all',
		met: notOnce.length === 0,
		eachOnce: notOnce.length === 0,
	});
	return checks;
}
