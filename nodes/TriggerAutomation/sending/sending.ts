/**
 * Options → Sending: when each item's first request starts. Adaptive starts an item as soon as the
 * service's window, shared with the other executions sending there, gives it a slot
 * (sharedWindow.ts); Fixed Batches and One at a Time start a batch, wait for all its answers and
 * the Batch Interval, then start the next. These two keep to the pace the user set for the
 * execution, as the HTTP Request node's Batching does, so they do not join the shared window. Both start nothing more after Stop, nor
 * after an item failed when the node is to stop at the first error (`halt`). Outcomes come back in
 * item order, whatever order the answers came in.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Pace } from './pace';
import { pause, waitingPace } from './pace';
import { ExecutionLane } from './executionLane';

export type Outcome = { itemIndex: number } & ({ json: IDataObject } | { error: unknown });

/** Sends one item (its first turn given) and never rejects: a failure is its outcome. */
export type SendItem = (itemIndex: number, pace: Pace) => Promise<Outcome>;

export interface Sending {
	/** The service's `{base_url}`: Adaptive shares its window with other executions sending there. */
	service: string;
	count: number;
	stop: AbortSignal | undefined;
	send: SendItem;
	halt: (outcome: Outcome) => boolean;
}

export async function sendInBatches(
	{ count, stop, send, halt }: Sending,
	batchSize: number,
	batchIntervalMs: number,
): Promise<Outcome[]> {
	const pace = waitingPace(stop);
	const outcomes: Outcome[] = [];
	for (let start = 0; start < count; start += batchSize) {
		if (start > 0 && batchIntervalMs > 0) await pause(batchIntervalMs, stop);
		if (stop?.aborted) break;
		const batch = Array.from(
			{ length: Math.min(batchSize, count - start) },
			async (_, offset) => await send(start + offset, pace),
		);
		const settled = await Promise.all(batch);
		outcomes.push(...settled);
		if (settled.some(halt)) break;
	}
	return outcomes;
}

export async function sendAdaptively({
	service,
	count,
	stop,
	send,
	halt,
}: Sending): Promise<Outcome[]> {
	const pace = new ExecutionLane(service, stop);
	const byItem: Outcome[] = [];
	const running: Array<Promise<void>> = [];
	let halted = false;
	try {
		for (let itemIndex = 0; itemIndex < count; itemIndex++) {
			await pace.start();
			if (stop?.aborted) break;
			if (halted) {
				pace.settled();
				break;
			}
			const sent = send(itemIndex, pace).then((outcome) => {
				byItem[itemIndex] = outcome;
				halted ||= halt(outcome);
			});
			running.push(sent);
		}
		await Promise.all(running);
	} finally {
		pace.close();
	}
	return byItem.filter((outcome) => outcome !== undefined);
}
