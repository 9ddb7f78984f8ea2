/**
 * Options → Sending: each item's requests through the service's rate limiter (Adaptive) or batch
 * after batch. Nothing starts after Stop or a halting failure; outcomes come in item order.
 */
import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { Attempt } from '../request/attempt';
import { ExecutionLane } from './executionLane';
import type { WaitTally } from './waitTally';

/** An item's way to the service, under the Sending mode chosen. */
export interface Pace {
	/** Answers accepted so far: the execution's, or under Adaptive the service's in this process. */
	readonly acceptedCount: number;
	readonly tally: WaitTally;
	/** One request at its turn (a re-send: `afterMs` on, or later); undefined: Stop, nothing sent. */
	attempt(send: () => Promise<Attempt>, afterMs?: number): Promise<Attempt | undefined>;
}

/** Waits `ms`, or less at Stop (n8n's sleep then rejects; the caller handles the stop). */
const pause = async (ms: number, signal?: AbortSignal) =>
	await sleep(ms, signal).catch(() => undefined);

/** Fixed Batches and One at a Time: an item waits only before its re-send. */
function waitingPace(stop: AbortSignal | undefined, tally: WaitTally): Pace {
	const pace = {
		acceptedCount: 0,
		tally,
		attempt: async (send: () => Promise<Attempt>, afterMs?: number) => {
			const tracked = tally.track(afterMs !== undefined);
			let attempt: Attempt | undefined;
			try {
				if (afterMs !== undefined && afterMs > 0) await pause(afterMs, stop);
				if (stop?.aborted) return undefined;
				tracked.sent();
				attempt = await send();
				if ('accepted' in attempt) pace.acceptedCount++;
				return attempt;
			} finally {
				tracked.done(attempt);
			}
		},
	};
	return pace;
}

export type Outcome = { itemIndex: number } & ({ json: IDataObject } | { error: unknown });

/** Sends one item and never rejects: a failure is its outcome; none: Stop came before it was sent. */
export type SendItem = (itemIndex: number, pace: Pace) => Promise<Outcome | undefined>;

export interface Sending {
	/** The service's `{base_url}`: Adaptive shares its limiter with other executions sending there. */
	service: string;
	count: number;
	stop: AbortSignal | undefined;
	send: SendItem;
	halt: (outcome: Outcome) => boolean;
	tally: WaitTally;
}

export async function sendInBatches(
	{ count, stop, send, halt, tally }: Sending,
	batchSize: number,
	batchIntervalMs: number,
): Promise<Outcome[]> {
	const pace = waitingPace(stop, tally);
	const outcomes: Outcome[] = [];
	for (let start = 0; start < count; start += batchSize) {
		if (start > 0 && batchIntervalMs > 0) await pause(batchIntervalMs, stop);
		if (stop?.aborted) break;
		const batch = Array.from(
			{ length: Math.min(batchSize, count - start) },
			async (_, offset) => await send(start + offset, pace),
		);
		const settled = (await Promise.all(batch)).filter((outcome) => outcome !== undefined);
		outcomes.push(...settled);
		if (settled.some(halt)) break;
	}
	return outcomes;
}

export async function sendAdaptively(plan: Sending): Promise<Outcome[]> {
	const { count, stop, send, halt } = plan;
	const lane = new ExecutionLane(plan.service, stop, plan.tally);
	const byItem: Array<Outcome | undefined> = [];
	const running: Array<Promise<void>> = [];
	let halted = false;
	try {
		for (let itemIndex = 0; itemIndex < count; itemIndex++) {
			// One new item waits for its turn at a time: the rest are not read yet (memory).
			await lane.room();
			if (stop?.aborted || halted) break;
			const sent = send(itemIndex, lane).then((outcome) => {
				byItem[itemIndex] = outcome;
				halted ||= outcome !== undefined && halt(outcome);
			});
			running.push(sent);
		}
		await Promise.all(running);
	} finally {
		lane.close();
	}
	return byItem.filter((outcome) => outcome !== undefined);
}
