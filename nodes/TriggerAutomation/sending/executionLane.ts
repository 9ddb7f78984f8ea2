/**
 * One execution's place in its service's gate (serviceGate.ts) under Sending → Adaptive, and its
 * items' Pace: re-sends before new items, a turn taken and given back in `attempt` only.
 */
import type { Failure } from '../answer/failure';
import { askedToWait, quotaSpent } from '../answer/rateLimited';
import type { Attempt } from '../request/attempt';
import type { Closure, Lane, ServiceGate } from './serviceGate';
import { gateFor } from './serviceGate';
import { WaitTally } from './waitTally';

/** An item let go unsent because the service is closed to it: what it said, and when it ends. */
function unsent({ until, by }: Closure, now: number): Failure {
	return by === 'Retry-After' ? askedToWait(until - now) : quotaSpent(until, by, now);
}

/** A waiting request's wake-up: with its turn (the number of its start), or without one (Stop). */
type Wake = (start: number | undefined) => void;

/**
 * One execution's place in the gate, and its items' Pace: its re-sends (in the order turned away)
 * before its new items. A turn is taken and given back in `attempt` only. sending.ts holds it to
 * the Pace shape where it hands it on; it does not name Pace, so sending/ has no import circle.
 */
export class ExecutionLane implements Lane {
	private readonly gate: ServiceGate;
	private readonly newItems: Wake[] = [];
	private readonly resends: Array<{ notBefore: number; wake: Wake }> = [];
	private room_: Array<() => void> = [];
	private readonly onStop = () => this.release();

	constructor(
		serviceUrl: string,
		private readonly stop: AbortSignal | undefined,
		readonly tally = new WaitTally(),
	) {
		this.gate = gateFor(serviceUrl);
		this.gate.join(this);
		stop?.addEventListener('abort', this.onStop, { once: true });
	}

	get accepted(): number {
		return this.gate.accepted;
	}

	/** When this execution's next re-send may go (infinity: none waits). */
	get resendAt(): number {
		return Math.min(...this.resends.map((resend) => resend.notBefore));
	}

	ready(now: number): boolean {
		return this.newItems.length > 0 || this.resendAt <= now;
	}

	/** Turn `start` to the first re-send due, else to the first new item (there is one: `ready`). */
	grant(now: number, start: number): void {
		const at = this.resends.findIndex((resend) => resend.notBefore <= now);
		const wake = at === -1 ? this.newItems.shift()! : this.resends.splice(at, 1)[0].wake;
		wake(start);
		if (this.newItems.length === 0) this.makeRoom();
	}

	/** Until no new item of this execution waits for its turn (or Stop). */
	async room(): Promise<void> {
		if (this.newItems.length === 0 || this.stop?.aborted) return;
		await new Promise<void>((resolve) => this.room_.push(resolve));
	}

	async attempt(send: () => Promise<Attempt>, afterMs?: number): Promise<Attempt | undefined> {
		if (this.stop?.aborted) return undefined;
		const tracked = this.tally.track(afterMs !== undefined);
		const turn = new Promise<number | undefined>((wake) =>
			afterMs === undefined
				? this.newItems.push(wake)
				: this.resends.push({ notBefore: Date.now() + afterMs, wake }),
		);
		this.gate.dispatch();
		const start = await turn;
		if (start === undefined) {
			tracked.done(undefined);
			return undefined;
		}
		let attempt: Attempt | undefined;
		let sent = false;
		const sentAt = Date.now();
		try {
			if (sentAt < this.gate.closed.until) return { failure: unsent(this.gate.closed, sentAt) };
			// Stopped while it waited: its turn goes back unused.
			if (this.stop?.aborted) return undefined;
			sent = true;
			tracked.sent();
			attempt = await send();
			return attempt;
		} finally {
			tracked.done(attempt);
			// How a stopped execution's aborted request ended says nothing of the service.
			const ended = attempt !== undefined && !this.stop?.aborted;
			this.gate.giveBack(start, sent, ended ? { sentAt, attempt: attempt! } : undefined);
		}
	}

	close(): void {
		this.stop?.removeEventListener('abort', this.onStop);
		this.release();
		this.gate.leave(this);
	}

	private makeRoom(): void {
		for (const resolve of this.room_.splice(0)) resolve();
	}

	private release(): void {
		for (const wake of this.newItems.splice(0)) wake(undefined);
		for (const { wake } of this.resends.splice(0)) wake(undefined);
		this.makeRoom();
	}
}
