/**
 * When an item's requests go out. Options → Sending → Adaptive shares one congestion window between
 * all items of every execution sending to the service (sharedWindow.ts); Fixed Batches and One at
 * a Time start items batch by batch (sending.ts), and an item then only waits before a re-send
 * (`waitingPace`).
 */
import { sleep } from 'n8n-workflow';

import type { Failure } from '../answer/failure';

export interface Pace {
	/**
	 * Until this item may send again, `waitMs` after it was turned away (`times` so far). Ends early
	 * at Stop.
	 */
	turn(waitMs: number, times: number): Promise<void>;
	/** An attempt sent at `sentAt` has ended (`failure` if not accepted); no `sentAt`: nothing was sent. */
	settled(sentAt?: number, failure?: Failure): void;
}

/** Waits `ms`, or less when `signal` fires first (the execution was stopped). */
export async function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
	// n8n's sleep rejects when the signal fires; a stop is handled by the caller.
	await sleep(ms, signal).catch(() => undefined);
}

export function waitingPace(stop: AbortSignal | undefined): Pace {
	return { turn: async (waitMs) => await pause(waitMs, stop), settled: () => undefined };
}
