/**
 * When an item's requests go out. Options → Sending → Adaptive shares one congestion window between
 * all items of the execution (`AdaptivePace`); Fixed Batches and One at a Time start items batch
 * by batch (sending.ts), and an item then only waits before a re-send (`waitingPace`).
 */
import { sleep } from 'n8n-workflow';

import { CongestionWindow } from './congestionWindow';
import type { Failure } from './failure';

export interface Pace {
	/** Until this item may send again, `waitMs` after it was turned away. Ends early at Stop. */
	turn(waitMs: number): Promise<void>;
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

/**
 * The window's requests in flight: a new item starts (`start`) and an item sends again (`turn`)
 * only when the window has room and no Retry-After is running. Re-sends go before new items, so an
 * item turned away is not turned away again by items that came after it.
 */
export class AdaptivePace implements Pace {
	private readonly window = new CongestionWindow();
	private inFlight = 0;
	private readonly waiting: Array<() => void> = [];
	private pausedUntil = 0;
	private pauseEnd: Promise<void> = Promise.resolve();
	private readonly wakeAll = () => this.waiting.splice(0).forEach((wake) => wake());

	constructor(private readonly stop: AbortSignal | undefined) {
		stop?.addEventListener('abort', this.wakeAll, { once: true });
	}

	/** Until a new item may send its first request. */
	async start(): Promise<void> {
		await this.slot(false);
	}

	async turn(waitMs: number): Promise<void> {
		this.pauseFor(waitMs);
		await this.slot(true);
	}

	settled(sentAt?: number, failure?: Failure): void {
		this.inFlight--;
		if (sentAt !== undefined) {
			const now = Date.now();
			if (!failure) this.window.accepted(sentAt, now);
			else if (failure.pushBack) {
				this.window.pushedBack(sentAt, now);
				if (failure.pushBack.afterMs) this.pauseFor(failure.pushBack.afterMs);
			}
		}
		for (let room = this.window.limit - this.inFlight; room > 0 && this.waiting.length; room--) {
			this.waiting.shift()!();
		}
	}

	/** After the execution: no listener stays on its Stop signal. */
	close(): void {
		this.stop?.removeEventListener('abort', this.wakeAll);
	}

	private async slot(resend: boolean): Promise<void> {
		for (;;) {
			if (this.stop?.aborted) return;
			if (Date.now() < this.pausedUntil) {
				await this.pauseEnd;
			} else if (this.inFlight < this.window.limit) {
				this.inFlight++;
				return;
			} else {
				await new Promise<void>((wake) =>
					resend ? this.waiting.unshift(wake) : this.waiting.push(wake),
				);
			}
		}
	}

	/** No request starts for `ms`: the service asked for it, or an item waits before a re-send. */
	private pauseFor(ms: number): void {
		const until = Date.now() + ms;
		if (until <= this.pausedUntil) return;
		this.pausedUntil = until;
		this.pauseEnd = pause(ms, this.stop);
	}
}
