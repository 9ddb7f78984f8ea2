/**
 * The speed a user feels: each side at its defaults (no option set) against a service that answers
 * every request after 50 ms, as over a real network to a service that creates a run: one execution
 * (a) with no limit, (b) limited to 40 requests/s and (c) to 5 requests/s, beyond which it answers
 * 429 with Retry-After: 1; and bursts of executions started together in one process, as n8n runs
 * one per event: (d) 50 × 2 items at 5 requests/s, (e) 20 × 10 at 20 requests/s, (f) 20 × 10 with
 * no limit; (g) 20 × 25 at 100 requests/s, and (h) the same after the service was busy for 5 s
 * (every request 429). Every side runs with On Error → Continue, so that each item's fate shows.
 * Every run meets a service the process has not sent to before (its own `{base_url}`), as a first
 * burst does.
 */
import type { IDataObject } from 'n8n-workflow';

import { outputOf, runWorkflow } from '../dev/engine';
import { Receiver } from './receiver';
import { elapsedMs, summarize } from './stats';
import type { EngineSide } from './workload';
import { LAST_NODE, SECRET, orderItem, sideWorkflow } from './workload';

export const SERVICE_DELAY_MS = 50;
/** The targets should hold for a service that answers in anything from 20 ms to 500 ms. */
export const OTHER_DELAYS_MS = [20, 500];

export interface Scenario {
	id: string;
	label: string;
	executions: number;
	items: number;
	perSecond?: number;
	/** Every request answered 429 with Retry-After: 1 for this long from the run's start. */
	busyMs?: number;
	/** Targets of a burst: every item accepted within this many seconds, in every round … */
	maxSeconds?: number;
	/** … and at most this many 429s per item. */
	max429PerItem?: number;
}

export const SCENARIOS: Scenario[] = [
	{ id: 'a', label: 'no limit', executions: 1, items: 200 },
	{ id: 'b', label: '40 requests/s', executions: 1, items: 200, perSecond: 40 },
	{ id: 'c', label: '5 requests/s', executions: 1, items: 50, perSecond: 5 },
	{ id: 'd', label: '5 requests/s', executions: 50, items: 100, perSecond: 5 },
	{ id: 'e', label: '20 requests/s', executions: 20, items: 200, perSecond: 20 },
	{ id: 'f', label: 'no limit', executions: 20, items: 200 },
	{
		id: 'g',
		label: '100 requests/s',
		executions: 20,
		items: 500,
		perSecond: 100,
		maxSeconds: 6.5,
		max429PerItem: 0.3,
	},
	{
		id: 'h',
		label: 'busy for 5 s, then 100 requests/s',
		executions: 20,
		items: 500,
		perSecond: 100,
		busyMs: 5000,
		// 1.3× the ideal: 5 s busy, then 500 items at 100/s.
		maxSeconds: 13,
	},
];

export const DEFAULT_SIDES: EngineSide[] = ['node', 'httpNode', 'bare'];

export interface DefaultsRun {
	seconds: number;
	itemsPerSecond: number;
	acceptedPerSecond: number;
	accepted: number;
	/** Output items that are errors, or (the bare node) carry a status that is not 2xx. */
	failed: number;
	tooMany: number;
	mostInFlight: number;
}

/** side → the runs of one scenario */
export type DefaultsResult = Record<string, Partial<Record<EngineSide, DefaultsRun[]>>>;

const failedItem = (json: IDataObject) =>
	json.error !== undefined || (typeof json.statusCode === 'number' && json.statusCode >= 300);

let services = 0;

async function once(
	receiver: Receiver,
	side: EngineSide,
	scenario: Scenario,
): Promise<DefaultsRun> {
	const perExecution = scenario.items / scenario.executions;
	const serviceUrl = `${receiver.url}/service-${++services}`;
	await receiver.take();
	const started = process.hrtime.bigint();
	const runs = await Promise.all(
		Array.from({ length: scenario.executions }, async (_, e) => {
			const items = Array.from({ length: perExecution }, (_, i) => orderItem(e * perExecution + i));
			return await runWorkflow(
				sideWorkflow(side, items, 'defaults', serviceUrl, { onError: 'continueRegularOutput' }),
			);
		}),
	);
	const seconds = elapsedMs(started) / 1000;
	const got = await receiver.take();
	if (got.rejected !== 0) throw new Error(`${side}: ${got.rejected} requests failed verification`);
	const output = runs.flatMap((run) => outputOf(run, LAST_NODE));
	if (output.length !== scenario.items) throw new Error(`${side}: ${output.length} output items`);
	return {
		seconds,
		itemsPerSecond: scenario.items / seconds,
		acceptedPerSecond: got.accepted / seconds,
		accepted: got.accepted,
		failed: output.filter((item) => failedItem(item.json)).length,
		tooMany: got.tooMany,
		mostInFlight: got.peakOpen,
	};
}

/**
 * Each scenario against a service of its own that answers after `delayMs`, the sides in rotated
 * rounds; before the first, one unmeasured run of each side (JIT, the engine's lazy modules: a
 * cold first run took 2.7× as long).
 */
export async function measureDefaults(
	runs: number,
	{ delayMs = SERVICE_DELAY_MS, sides = DEFAULT_SIDES } = {},
): Promise<DefaultsResult> {
	const result: DefaultsResult = {};
	for (const scenario of SCENARIOS) {
		const receiver = await Receiver.start(SECRET, {
			delayMs,
			perSecond: scenario.perSecond,
			busyMs: scenario.busyMs,
		});
		const bySide: Partial<Record<EngineSide, DefaultsRun[]>> = {};
		try {
			if (Object.keys(result).length === 0)
				for (const side of sides) await once(receiver, side, scenario);
			for (let round = 0; round < runs; round++) {
				const shift = round % sides.length;
				const order = [...sides.slice(shift), ...sides.slice(0, shift)];
				for (const side of order) (bySide[side] ??= []).push(await once(receiver, side, scenario));
			}
		} finally {
			receiver.stop();
		}
		for (const side of sides) {
			const of = (f: (r: DefaultsRun) => number) => summarize(bySide[side]!.map(f)).median;
			process.stderr.write(
				`  ${delayMs} ms (${scenario.id}) ${side}: ${of((r) => r.itemsPerSecond).toFixed(0)} items/s, ` +
					`${of((r) => r.accepted)} accepted, ${of((r) => r.failed)} failed, ` +
					`${of((r) => r.tooMany)} 429s, ${of((r) => r.mostInFlight)} in flight, ` +
					`${of((r) => r.acceptedPerSecond).toFixed(1)} accepted/s\n`,
			);
		}
		result[scenario.id] = bySide;
	}
	return result;
}
