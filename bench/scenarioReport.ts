/**
 * The report's part for the scenarios at the defaults (bench/defaults.ts) and the large execution
 * (bench/largeExecution.ts): each figure beside its target, the informed 429s per item of each
 * limited scenario against its target, the tables of every side's runs, the blind and informed
 * 429s beside the AWS SDK's limiter, and for (g) when its requests reached the service over the
 * first second.
 */
import type { BenchSide, DefaultsResult, DefaultsRun, Scenario } from './defaults';
import { SCENARIOS, SERVICE_DELAY_MS, mostWithin, sidesOf } from './defaults';
import type { LargeRun } from './largeExecution';
import { LARGE_DELAY_MS, LARGE_ITEMS } from './largeExecution';
import { MAX_INFORMED_PER_ITEM } from './refusals';
import { num, ratio, spread, summarize } from './stats';

export interface Check {
	label: string;
	result: string;
	target: string;
	met?: boolean;
}

const TARGET = {
	/** (b): accepted items/s against a service limited to 40 requests/s. */
	limitedPerSecond: 32,
	/** (d), (e): accepted/s of a burst of executions, as a share of the service's limit. */
	burstShareOfLimit: 0.8,
	/** (i): items/s of one large execution at 20 ms, no limit (aff201d: 1,122–1,419/s). */
	largePerSecond: 1100,
};

const SIDE_NAMES: Record<BenchSide, string> = {
	node: 'Trigger Automation',
	httpNode: 'HTTP Request node',
	aws: 'AWS SDK limiter',
};

const median = (runs: DefaultsRun[], f: (r: DefaultsRun) => number) =>
	summarize(runs.map(f)).median;
const most = (runs: DefaultsRun[], f: (r: DefaultsRun) => number) => Math.max(...runs.map(f));
const allOnce = (runs: DefaultsRun[]) => runs.every((run) => run.eachOnce && run.failed === 0);
const accepted = (all: boolean) => (all ? 'all accepted once' : '**not all accepted once**');

function burstLabel(scenario: Scenario): string {
	const { executions, items } = scenario;
	return executions === 1 ? '' : `${executions} executions × ${items / executions} items at once, `;
}

/** The check of one scenario at one answer time. */
export function scenarioCheck(scenario: Scenario, delayMs: number, result: DefaultsResult): Check {
	const bySide = result[scenario.id][delayMs];
	const runs = bySide.node!;
	const { id, items, perSecond, maxSeconds, max429PerItem } = scenario;
	const at = `(${id}) ${delayMs} ms service, ${burstLabel(scenario)}${scenario.label}`;
	const all = allOnce(runs);
	if (scenario.minVsHttp !== undefined) {
		const vsHttp = summarize(
			runs.map((run, i) => run.itemsPerSecond / bySide.httpNode![i].itemsPerSecond),
		);
		return {
			label: `${at}: Trigger Automation ÷ n8n HTTP Request node, items/s`,
			result: ratio(vsHttp),
			target: `≥ ${scenario.minVsHttp.toFixed(1)}×`,
			met: vsHttp.median >= scenario.minVsHttp,
		};
	}
	if (scenario.kind === 'twice') {
		const seconds = most(runs, (r) => r.second!.seconds);
		const tooMany = most(runs, (r) => r.second!.tooMany);
		const max429s = max429PerItem! * items;
		const firstAll = allOnce(runs);
		const secondAll = allOnce(runs.map((r) => r.second!));
		return {
			label: `${at}: the second burst, every item accepted, seconds and 429s (the most of any round); the first contact before it (median)`,
			result: `${accepted(secondAll)}, ${seconds.toFixed(1)} s, ${tooMany} 429s; first contact: ${firstAll ? '' : 'not '}all accepted once, ${median(runs, (r) => r.seconds).toFixed(1)} s, ${median(runs, (r) => r.tooMany)} 429s`,
			target: `all, ≤ ${maxSeconds} s, ≤ ${max429s} 429s`,
			met: secondAll && seconds <= maxSeconds! && tooMany <= max429s,
		};
	}
	if (scenario.then && maxSeconds === undefined) {
		return {
			label: `${at}: Trigger Automation, every item accepted, seconds, 429s and those after the limit moved (median)`,
			result: `${accepted(all)}, ${median(runs, (r) => r.seconds).toFixed(1)} s, ${median(runs, (r) => r.tooMany)} 429s, ${median(runs, (r) => r.tooManyAfterMove ?? 0)} after the drop`,
			target: '— (reported)',
		};
	}
	if (maxSeconds !== undefined) {
		const slowest = most(runs, (r) => r.seconds);
		const tooMany = most(runs, (r) => r.tooMany);
		const max429s = max429PerItem === undefined ? Infinity : max429PerItem * items;
		const what = scenario.kind === 'nginx' ? "refusals (nginx's log)" : '429s';
		return {
			label: `${at}: Trigger Automation, every item accepted, seconds and ${what} (the most of any round)`,
			result: `${accepted(all)}, ${slowest.toFixed(1)} s, ${tooMany} ${what.split(' ')[0]}`,
			target: `all, ≤ ${maxSeconds} s${max429s === Infinity ? '' : `, ≤ ${max429s} ${what.split(' ')[0]}`}`,
			met: all && slowest <= maxSeconds && tooMany <= max429s,
		};
	}
	if (scenario.executions === 1 && perSecond === 5) {
		return {
			label: `${at}: Trigger Automation, every item accepted`,
			result: accepted(all),
			target: 'all',
			met: all,
		};
	}
	const single = scenario.executions === 1;
	const rate = median(runs, (r) => (single ? r.itemsPerSecond : r.acceptedPerSecond));
	const floor = single ? TARGET.limitedPerSecond : TARGET.burstShareOfLimit * perSecond!;
	return {
		label: `${at}: Trigger Automation, every item accepted, ${single ? 'items/s' : 'accepted/s'}`,
		result: `${accepted(all)}, ${single ? num(rate) : rate.toFixed(1)}/s`,
		target: `all, ≥ ${floor}/s`,
		met: all && rate >= floor,
	};
}

/** The list kept under `key`, a new one the first time. */
function listAt<K, V>(map: Map<K, V[]>, key: K): V[] {
	return map.get(key) ?? map.set(key, []).get(key)!;
}

/** Summary rows: each scenario at 50 ms on its own, the other answer times one row each. */
export function scenarioChecks(result: DefaultsResult): Check[] {
	const checks: Check[] = [];
	const others = new Map<number, Array<[Scenario, Check]>>();
	for (const scenario of SCENARIOS) {
		for (const key of Object.keys(result[scenario.id] ?? {})) {
			const delayMs = Number(key);
			const check = scenarioCheck(scenario, delayMs, result);
			if (delayMs === SERVICE_DELAY_MS) checks.push(check);
			else listAt(others, delayMs).push([scenario, check]);
		}
	}
	checks.push(...informedChecks(result));
	for (const [delayMs, list] of [...others].sort(([a], [b]) => a - b)) {
		checks.push({
			label: `${list.map(([s]) => `(${s.id})`).join(', ')} at the defaults, ${delayMs} ms service: Trigger Automation, each scenario's target`,
			result: list.map(([s, check]) => `(${s.id}) ${check.result.replace(/\*\*/g, '')}`).join('; '),
			target: 'each as at 50 ms',
			met: list.every(([, check]) => check.met !== false),
		});
	}
	return checks;
}

const row = (cells: string[]) => `| ${cells.join(' | ')} |`;
export const table = (head: string[], rows: string[][]) =>
	[row(head), row(head.map(() => '---')), ...rows.map(row)].join('\n');

const HEAD = [
	'Service',
	'Side',
	'seconds',
	'items/s',
	'accepted',
	'failed',
	'429s',
	'429s blind, informed',
	'most arrivals in 25 ms',
	'most in flight',
	'accepted/s',
];

function runRows(label: string, side: BenchSide, runs: DefaultsRun[]): string[] {
	const range = (f: (r: DefaultsRun) => number, digits = 0) =>
		spread(summarize(runs.map(f)), digits);
	return [
		label,
		SIDE_NAMES[side],
		range((r) => r.seconds, 1),
		range((r) => r.itemsPerSecond),
		range((r) => r.accepted),
		range((r) => r.failed),
		range((r) => r.tooMany),
		`${num(median(runs, (r) => r.blind))}, ${num(median(runs, (r) => r.informed))}`,
		range((r) => mostWithin(r.arrivals, 25)),
		range((r) => r.mostInFlight),
		range((r) => r.acceptedPerSecond, 1),
	];
}

/** The table of every scenario run at `delayMs`. */
export function delayTable(result: DefaultsResult, delayMs: number): string {
	const rows: string[][] = [];
	for (const scenario of SCENARIOS) {
		const bySide = result[scenario.id]?.[delayMs];
		if (!bySide) continue;
		const executions = scenario.executions === 1 ? '' : `${scenario.executions} executions, `;
		const label = `(${scenario.id}) ${scenario.label}, ${executions}${scenario.items} items`;
		for (const side of sidesOf(scenario, delayMs)) {
			rows.push(runRows(label, side, bySide[side]!));
			if (scenario.kind === 'twice') {
				const again = bySide[side]!.map((r) => r.second!);
				rows.push(runRows(`(${scenario.id}) the same burst again`, side, again));
			}
		}
	}
	return table(HEAD, rows);
}

const limited = (scenario: Scenario) =>
	scenario.perSecond !== undefined || scenario.busyMs !== undefined || scenario.kind === 'nginx';

/**
 * Informed 429s per item in the real app, every limited scenario's worst round, a row per answer
 * time: the engine's rows hold the burst at once, these the burst as n8n's webhooks start it.
 */
function informedChecks(result: DefaultsResult): Check[] {
	const byDelay = new Map<number, Array<[string, number]>>();
	for (const scenario of SCENARIOS.filter(limited)) {
		const worst = (runs: DefaultsRun[]) =>
			Math.max(...runs.map((r) => r.informed)) / scenario.items;
		for (const [key, bySide] of Object.entries(result[scenario.id] ?? {})) {
			if (!bySide.node) continue;
			const list = listAt(byDelay, Number(key));
			list.push([`(${scenario.id})`, worst(bySide.node)]);
			if (scenario.kind === 'twice') {
				list.push([`(${scenario.id}) again`, worst(bySide.node.map((r) => r.second!))]);
			}
		}
	}
	return [...byDelay]
		.sort(([a], [b]) => a - b)
		.map(([delayMs, list]) => ({
			label: `Every limited scenario in the real n8n app at the defaults, ${delayMs} ms service: Trigger Automation, informed 429s per item (worst round of each)`,
			result: list.map(([id, perItem]) => `${id} ${perItem.toFixed(2)}`).join('; '),
			target: `each ≤ ${MAX_INFORMED_PER_ITEM}`,
			met: list.every(([, perItem]) => perItem <= MAX_INFORMED_PER_ITEM),
		}));
}

/** `10.7 s, 186 (180, 6), 0.03 informed per item`: medians of the rounds, each on its own. */
function mannersCell(runs: DefaultsRun[] | undefined, items: number): string {
	if (!runs) return '—';
	const of = (f: (r: DefaultsRun) => number) => median(runs, f);
	const informed = of((r) => r.informed);
	return `${of((r) => r.seconds).toFixed(1)} s, ${num(of((r) => r.tooMany))} (${num(of((r) => r.blind))}, ${num(informed)}), ${(informed / items).toFixed(2)} informed per item`;
}

/**
 * Each scenario with a limit at 50 ms: time and 429s (blind, informed) of Trigger Automation and,
 * where it ran, the AWS SDK's limiter; undefined when no such scenario ran.
 */
export function mannersTable(result: DefaultsResult): string | undefined {
	const rows: string[][] = [];
	for (const scenario of SCENARIOS.filter(limited)) {
		const bySide = result[scenario.id]?.[SERVICE_DELAY_MS];
		if (!bySide?.node) continue;
		const { id, executions, items, label } = scenario;
		const shape =
			executions === 1
				? `one execution of ${items} items`
				: `${executions} executions × ${items / executions} items`;
		rows.push([
			`(${id}) ${shape}, ${label}`,
			mannersCell(bySide.node, items),
			mannersCell(bySide.aws, items),
		]);
		if (scenario.kind === 'twice') {
			const again = (runs?: DefaultsRun[]) => runs?.map((r) => r.second!);
			rows.push([
				`(${id}) the same burst again`,
				mannersCell(again(bySide.node), items),
				mannersCell(again(bySide.aws), items),
			]);
		}
	}
	if (rows.length === 0) return undefined;
	const cell = 'time, 429s (blind, informed), informed per item';
	return table(['Scenario', `Trigger Automation: ${cell}`, `AWS SDK limiter: ${cell}`], rows);
}

/** (g) at 50 ms: requests reaching the service per 10 ms over the first second, each round. */
export function arrivalsTable(result: DefaultsResult): string | undefined {
	const runs = result.g?.[SERVICE_DELAY_MS]?.node;
	if (!runs) return undefined;
	const spans = Array.from({ length: 10 }, (_, span) => [
		`${span * 100}–${span * 100 + 100} ms`,
		...runs.map((run) => {
			const bins = Array.from<number>({ length: 10 }).fill(0);
			for (const at of run.arrivals) {
				const bin = Math.floor(at / 10) - span * 10;
				if (bin >= 0 && bin < 10) bins[bin]++;
			}
			return bins.join(' ');
		}),
	]);
	const head = ['From the first arrival', ...runs.map((_, i) => `round ${i + 1}: per 10 ms`)];
	const firstSecond = runs.map((run) => run.arrivals.filter((at) => at < 1000).length);
	return `${table(head, spans)}\n\nArrivals in the first second, by round: ${firstSecond.join(', ')}; the most within any 25 ms: ${runs.map((run) => mostWithin(run.arrivals, 25)).join(', ')}.`;
}

export function largeCheck(runs: LargeRun[]): Check {
	const perSecond = summarize(runs.map((r) => r.itemsPerSecond));
	const failed = Math.max(...runs.map((r) => r.failed));
	const peak = summarize(runs.map((r) => r.peakRss / 2 ** 20));
	return {
		label: `(i) At the defaults, ${LARGE_DELAY_MS} ms service, no limit, one execution of ${num(LARGE_ITEMS)} items: Trigger Automation, items/s (peak RSS of the process)`,
		result: `${spread(perSecond)}/s, ${failed === 0 ? 'none failed' : `**${failed} failed**`} (peak RSS ${spread(peak, 0, ' MiB')})`,
		target: `≥ ${num(TARGET.largePerSecond)}/s`,
		met: failed === 0 && perSecond.median >= TARGET.largePerSecond,
	};
}

export function largeSection(runs: LargeRun[]): string {
	const mib = (f: (r: LargeRun) => number) => spread(summarize(runs.map(f)), 0, ' MiB');
	return `One execution of ${num(LARGE_ITEMS)} order-like items, Start (Manual Trigger, items pinned) → Trigger Automation at its defaults, against the receiver answering in ${LARGE_DELAY_MS} ms with no limit, through n8n-core's engine in a fresh process per run (after a warm-up run of 1,000 items): measured in the engine so that the peak RSS is that one process's, and comparable with the figures of earlier commits measured the same way. ${runs.length} runs: ${spread(summarize(runs.map((r) => r.itemsPerSecond)))} items/s; RSS before the run (items built, engine warm) ${mib((r) => r.rssBefore / 2 ** 20)}, peak during it ${mib((r) => r.peakRss / 2 ** 20)} (the kernel's high-water mark, VmHWM, reset at the baseline); peak growth ${mib((r) => (r.peakRss - r.rssBefore) / 2 ** 20)}.`;
}
