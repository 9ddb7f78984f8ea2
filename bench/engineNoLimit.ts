/**
 * (a) also in n8n-core's engine: one execution of 200 items, no limit, Trigger Automation ÷ n8n's
 * HTTP Request node, both at their defaults, at each answer time. In the real app the HTTP Request
 * node reads and decrypts its credential from n8n's database for every item, in turn (its item
 * loop), which alone keeps it far behind; the engine's credentials are in memory, so there the ratio shows what Sending → Adaptive itself
 * costs where nothing limits it (a ceiling), as the issue measured it.
 */
import type { IDataObject } from 'n8n-workflow';

import { outputOf, runWorkflow } from '../dev/engine';
import type { Receiver } from './receiver';
import { elapsedMs, ratio, spread, summarize } from './stats';
import { LAST_NODE, failedItem, orderItem, sideWorkflow } from './workload';

export const ENGINE_NO_LIMIT_ITEMS = 200;
const SIDES = ['node', 'httpNode'] as const;

/** answer time → side → items/s per round */
export type EngineNoLimit = Record<number, Record<(typeof SIDES)[number], number[]>>;

let services = 0;

async function once(receiver: Receiver, side: (typeof SIDES)[number], items: IDataObject[]) {
	await receiver.take();
	const url = `${receiver.url}/engine-service-${++services}`;
	const started = process.hrtime.bigint();
	const run = await runWorkflow(
		sideWorkflow(side, items, 'defaults', url, { onError: 'continueRegularOutput' }),
	);
	const seconds = elapsedMs(started) / 1000;
	const got = await receiver.take();
	const output = outputOf(run, LAST_NODE);
	const failed = output.filter((item) => failedItem(item.json)).length;
	if (got.accepted !== items.length || failed !== 0 || output.length !== items.length) {
		throw new Error(`(a) engine ${side}: ${got.accepted} accepted, ${failed} failed`);
	}
	return items.length / seconds;
}

/** Rounds of both sides (rotated) at each answer time, after one unmeasured run of each. */
export async function measureEngineNoLimit(
	receiver: Receiver,
	delays: number[],
	rounds: number,
): Promise<EngineNoLimit> {
	const items = Array.from({ length: ENGINE_NO_LIMIT_ITEMS }, (_, i) => orderItem(i));
	const result: EngineNoLimit = {};
	for (const delayMs of delays) {
		await receiver.take({ delayMs });
		if (Object.keys(result).length === 0)
			for (const side of SIDES) await once(receiver, side, items);
		const bySide = (result[delayMs] = { node: [] as number[], httpNode: [] as number[] });
		for (let round = 0; round < rounds; round++) {
			const order = round % 2 === 0 ? SIDES : [...SIDES].reverse();
			for (const side of order) bySide[side].push(await once(receiver, side, items));
		}
		const vs = summarize(bySide.node.map((n, i) => n / bySide.httpNode[i]));
		process.stderr.write(`  (a) engine ${delayMs} ms: ${ratio(vs)}\n`);
	}
	return result;
}

export function engineNoLimitRatio(result: EngineNoLimit, delayMs: number) {
	const { node, httpNode } = result[delayMs];
	return summarize(node.map((n, i) => n / httpNode[i]));
}

export function engineNoLimitRows(result: EngineNoLimit): string[][] {
	return Object.keys(result).map((key) => {
		const delayMs = Number(key);
		const { node, httpNode } = result[delayMs];
		return [
			`${delayMs} ms`,
			spread(summarize(node)),
			spread(summarize(httpNode)),
			ratio(engineNoLimitRatio(result, delayMs)),
		];
	});
}
