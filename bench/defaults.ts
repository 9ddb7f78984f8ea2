/**
 * The speed a user feels: each side at its defaults (no option set) against a service that answers
 * every request after 50 ms, as over a real network to a service that creates a run: (a) with no
 * limit, (b) limited to 40 requests/s and (c) to 5 requests/s, beyond which it answers 429 with
 * Retry-After: 1. Every side runs with On Error → Continue, so that each item's fate shows.
 */
import type { IDataObject } from 'n8n-workflow';

import { outputOf, runWorkflow } from '../dev/engine';
import { Receiver } from './receiver';
import { elapsedMs, summarize } from './stats';
import type { EngineSide } from './workload';
import { LAST_NODE, SECRET, orderItem, sideWorkflow } from './workload';

export const SERVICE_DELAY_MS = 50;

export const SCENARIOS = [
	{ id: 'a', label: 'no limit', items: 200, perSecond: undefined },
	{ id: 'b', label: '40 requests/s', items: 200, perSecond: 40 },
	{ id: 'c', label: '5 requests/s', items: 50, perSecond: 5 },
] as const;
export type Scenario = (typeof SCENARIOS)[number];

export const DEFAULT_SIDES: EngineSide[] = ['node', 'httpNode', 'bare'];

export interface DefaultsRun {
	itemsPerSecond: number;
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

async function once(
	receiver: Receiver,
	side: EngineSide,
	scenario: Scenario,
): Promise<DefaultsRun> {
	const items = Array.from({ length: scenario.items }, (_, i) => orderItem(i));
	await receiver.take();
	const started = process.hrtime.bigint();
	const run = await runWorkflow(
		sideWorkflow(side, items, 'defaults', receiver.url, { onError: 'continueRegularOutput' }),
	);
	const ms = elapsedMs(started);
	const got = await receiver.take();
	if (got.rejected !== 0) throw new Error(`${side}: ${got.rejected} requests failed verification`);
	const output = outputOf(run, LAST_NODE);
	return {
		itemsPerSecond: scenario.items / (ms / 1000),
		accepted: got.accepted,
		failed: output.filter((item) => failedItem(item.json)).length,
		tooMany: got.tooMany,
		mostInFlight: got.peakOpen,
	};
}

/**
 * Each scenario against a service of its own, the sides in rotated rounds; before the first, one
 * unmeasured run of each side (JIT, the engine's lazy modules: a cold first run took 2.7× as long).
 */
export async function measureDefaults(runs: number): Promise<DefaultsResult> {
	const result: DefaultsResult = {};
	for (const scenario of SCENARIOS) {
		const receiver = await Receiver.start(SECRET, {
			delayMs: SERVICE_DELAY_MS,
			perSecond: scenario.perSecond,
		});
		const bySide: Partial<Record<EngineSide, DefaultsRun[]>> = {};
		try {
			if (scenario === SCENARIOS[0])
				for (const side of DEFAULT_SIDES) await once(receiver, side, scenario);
			for (let round = 0; round < runs; round++) {
				const shift = round % DEFAULT_SIDES.length;
				const order = [...DEFAULT_SIDES.slice(shift), ...DEFAULT_SIDES.slice(0, shift)];
				for (const side of order) (bySide[side] ??= []).push(await once(receiver, side, scenario));
			}
		} finally {
			receiver.stop();
		}
		for (const side of DEFAULT_SIDES) {
			const median = summarize(bySide[side]!.map((r) => r.itemsPerSecond)).median;
			process.stderr.write(`  (${scenario.id}) ${side}: ${median.toFixed(0)} items/s\n`);
		}
		result[scenario.id] = bySide;
	}
	return result;
}
