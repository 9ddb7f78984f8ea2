/**
 * Options → Sending: when each item's requests go out, through the service's gate (Adaptive,
 * serviceGate.ts) or batch after batch. Nothing starts after Stop, nor after a failure when the
 * node stops at the first error (`halt`). Outcomes come back in item order.
 */
import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { Failure } from '../answer/failure';
import { ExecutionLane } from './serviceGate';

/** An item's way to the service, under the Sending mode chosen. */
export interface Pace {
	/** Answers the service accepted so far, counted where the pace is shared. */
	readonly accepted: number;
	/** What is left of a Retry-After longer than the node waits (> 0): the item fails unsent. */
	readonly refusedForMs?: number;
	/** Until the item may be sent again, `waitMs` after it was turned away; ends early at Stop. */
	turn(waitMs: number): Promise<void>;
	/** An attempt sent at `sentAt` has ended (`failure` if not accepted); no `sentAt`: none sent. */
	settled(sentAt?: number, failure?: Failure): void;
}

/** Waits `ms`, or less at Stop (n8n's sleep then rejects; the caller handles the stop). */
const pause = async (ms: number, signal?: AbortSignal) =>
	await sleep(ms, signal).catch(() => undefined);

/** Fixed Batches and One at a Time: an item waits only before its re-send. */
function waitingPace(stop: AbortSignal | undefined): Pace {
	const pace: Pace & { accepted: number } = {
		accepted: 0,
		turn: async (waitMs) => await pause(waitMs, stop),
		settled: (sentAt, failure) => {
			if (sentAt !== undefined && !failure) pace.accepted++;
		},
	};
	return pace;
}

export type Outcome = { itemIndex: number } & ({ json: IDataObject } | { error: unknown });

/** Sends one item (its first turn given) and never rejects: a failure is its outcome. */
export type SendItem = (itemIndex: number, pace: Pace) => Promise<Outcome>;

export interface Sending {
	/** The service's `{base_url}`: Adaptive shares its gate with other executions sending there. */
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

export async function sendAdaptively(plan: Sending): Promise<Outcome[]> {
	const { count, stop, send, halt } = plan;
	const pace = new ExecutionLane(plan.service, stop);
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
