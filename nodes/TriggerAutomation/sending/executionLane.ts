/**
 * One execution's place in its service's shared window (sharedWindow.ts): its new items wait there
 * for their first slot and its turned-away items for a re-send; each answer tells the window what the
 * service did. Stop lets this execution's waiting items go at once, and `close` gives back whatever
 * slots it still holds, so nothing of a finished execution stays in the window.
 */
import type { Failure } from '../answer/failure';
import type { Pace } from './pace';
import type { Lane, ServiceWindow } from './sharedWindow';
import { windowFor } from './sharedWindow';

export class ExecutionLane implements Lane, Pace {
	private readonly shared: ServiceWindow;
	/** Slots this execution holds: given back at `close` if an item never settled them. */
	private held = 0;
	/** New items waiting for their first slot. */
	private readonly queue: Array<() => void> = [];
	private readonly onStop = () => this.release();

	constructor(
		serviceUrl: string,
		private readonly stop: AbortSignal | undefined,
	) {
		this.shared = windowFor(serviceUrl);
		this.shared.join();
		stop?.addEventListener('abort', this.onStop, { once: true });
	}

	get waiting(): boolean {
		return this.queue.length > 0;
	}

	/** A slot for this lane's first new item waiting (there is one: `waiting`). */
	grantNext(): void {
		this.grant(this.queue.shift()!);
	}

	/** A slot of the window for one of this lane's items, which `wake` lets go. */
	grant(wake: () => void): void {
		this.held++;
		this.shared.inFlight++;
		wake();
	}

	/** Until a new item may send its first request (or Stop). */
	async start(): Promise<void> {
		if (this.stop?.aborted) return;
		const granted = new Promise<void>((wake) => this.queue.push(wake));
		this.shared.enqueue(this);
		await granted;
	}

	async turn(waitMs: number, times: number): Promise<void> {
		this.shared.pauseFor(waitMs);
		if (this.stop?.aborted) return;
		const granted = new Promise<void>((wake) =>
			this.shared.enqueueResend({ lane: this, times, wake }),
		);
		await granted;
	}

	settled(sentAt?: number, failure?: Failure): void {
		this.held--;
		const shared = this.shared;
		shared.inFlight--;
		shared.lastActive = Date.now();
		// An answer to a stopped execution's aborted request says nothing of the service.
		if (sentAt !== undefined && !this.stop?.aborted) {
			if (!failure) {
				shared.window.accepted(sentAt, shared.lastActive);
				shared.rate.acceptedOne();
			} else if (failure.pushBack) {
				const waitMs = failure.pushBack.afterMs ?? 0;
				shared.window.pushedBack(sentAt, shared.lastActive, waitMs > 0);
				if (waitMs > 0) shared.pauseFor(waitMs, true);
			}
		}
		shared.dispatch();
	}

	/** After the execution: its slots are free, and no listener stays on its Stop signal. */
	close(): void {
		this.stop?.removeEventListener('abort', this.onStop);
		this.release();
		this.shared.inFlight -= this.held;
		this.held = 0;
		this.shared.leave(this);
	}

	/** Every waiting item of this execution, let go without a slot (Stop, or the end). */
	private release(): void {
		for (const wake of this.queue.splice(0)) wake();
		for (const { wake } of this.shared.dropResends(this)) wake();
	}
}
