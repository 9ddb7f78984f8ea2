/**
 * One execution's lane in its service's limiter, and its items' Pace under Adaptive: re-sends, in
 * the order turned away, before new items. It does not name Pace (no import circle).
 */
import { notSent } from '../answer/rateLimited';
import type { Attempt } from '../request/attempt';
import { ServiceLimiter } from './limiter';
import { WaitTally } from './waitTally';

/** A waiting request's wake-up: with its turn (true), or without one (Stop). */
type Wake = (turn: boolean) => void;

export class ExecutionLane {
	private readonly limiter: ServiceLimiter;
	private readonly newItems: Wake[] = [];
	private readonly resends: Array<{ notBefore: number; wake: Wake }> = [];
	private room_: Array<() => void> = [];
	private readonly onStop = () => this.release();

	constructor(
		private readonly service: string,
		private readonly stop: AbortSignal | undefined,
		readonly tally = new WaitTally(),
	) {
		this.limiter = ServiceLimiter.join(service, this);
		stop?.addEventListener('abort', this.onStop, { once: true });
	}

	get acceptedCount(): number {
		return this.limiter.acceptedCount;
	}

	/** When its next re-send may go (infinity: none waits). */
	get resendAt(): number {
		return Math.min(...this.resends.map((resend) => resend.notBefore));
	}

	ready(now: number): boolean {
		return this.newItems.length > 0 || this.resendAt <= now;
	}

	/** A turn: to its first re-send due, else to its first new item. */
	grant(): void {
		const at = this.resends.findIndex((resend) => resend.notBefore <= Date.now());
		(at === -1 ? this.newItems.shift()! : this.resends.splice(at, 1)[0].wake)(true);
		if (this.newItems.length === 0) this.makeRoom();
	}

	/** Until no new item of this execution waits for its turn (or Stop): the rest stay unread. */
	async room(): Promise<void> {
		if (this.newItems.length === 0 || this.stop?.aborted) return;
		await new Promise<void>((resolve) => this.room_.push(resolve));
	}

	/** The one place a turn is taken and given back. */
	async attempt(send: () => Promise<Attempt>, afterMs?: number): Promise<Attempt | undefined> {
		if (this.stop?.aborted) return undefined;
		const tracked = this.tally.track(afterMs !== undefined);
		const turn = new Promise<boolean>((wake) =>
			afterMs === undefined
				? this.newItems.push(wake)
				: this.resends.push({ notBefore: Date.now() + afterMs, wake }),
		);
		this.limiter.dispatch();
		if (!(await turn)) {
			tracked.done(undefined);
			return undefined;
		}
		let attempt: Attempt | undefined;
		let sent = false;
		const sentAt = Date.now();
		try {
			const { until, by } = this.limiter.closed;
			if (sentAt < until) return { failure: notSent(until, by, sentAt) };
			// Stopped while it waited: its turn goes back unused.
			if (this.stop?.aborted) return undefined;
			sent = true;
			tracked.sent();
			return (attempt = await send());
		} finally {
			tracked.done(attempt);
			// How a stopped execution's aborted request ended says nothing of the service.
			const read = this.stop?.aborted ? undefined : attempt;
			this.limiter.giveBack(sent ? { sentAt, attempt: read } : undefined);
		}
	}

	close(): void {
		this.stop?.removeEventListener('abort', this.onStop);
		this.release();
		ServiceLimiter.leave(this.service, this);
	}

	private makeRoom(): void {
		for (const resolve of this.room_.splice(0)) resolve();
	}

	private release(): void {
		for (const wake of [...this.newItems.splice(0), ...this.resends.splice(0).map((r) => r.wake)]) {
			wake(false);
		}
		this.makeRoom();
	}
}
