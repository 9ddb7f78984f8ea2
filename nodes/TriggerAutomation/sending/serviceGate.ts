/**
 * Sending → Adaptive: one gate per service in this n8n process, shared by the executions sending
 * there, letting requests start as the quota the service tells (quota.ts), the rate (sendRate.ts)
 * and MAX_IN_FLIGHT allow; and each execution's lane in it, the Pace of its items (re-sends before
 * new items, a turn taken and given back in `ExecutionLane.attempt` only).
 */
import { sleep } from 'n8n-workflow';

import type { Failure } from '../answer/failure';
import type { QuotaReading } from '../answer/rateLimitHeaders';
import { askedToWait, quotaSpent } from '../answer/rateLimited';
import { MAX_IN_FLIGHT } from '../limits';
import type { Attempt } from '../request/attempt';
import { tooLongToWait } from './resendPolicy';
import { Quota } from './quota';
import { SendRate } from './sendRate';
import { WaitTally } from './waitTally';

/** Starts per tick of the event loop: between ticks it reads answers, so a 429 is heard early. */
export const STARTS_PER_TICK = 8;

/**
 * The service said nothing more goes to it before `until`, longer than the node waits: by a
 * Retry-After, or by a quota spent until its reset. Until then every turn fails its item unsent.
 */
export interface Closure {
	until: number;
	by: 'Retry-After' | QuotaReading['header'];
}

export class ServiceGate {
	readonly rate = new SendRate(Date.now());
	readonly quota = new Quota();
	/** Accepted answers so far: a turn-away while others are accepted costs no retry (triggerItem). */
	accepted = 0;
	/** Turns granted and not yet given back: requests in flight. */
	inFlight = 0;
	/** Until when the service is closed to this process, and how it said so. */
	closed: Closure = { until: 0, by: 'Retry-After' };
	/** The executions sending here, in the order they get turns (a rotation). */
	private readonly lanes: ExecutionLane[] = [];
	private timer: AbortController | undefined;
	private timerAt = 0;
	/** Starts since an answer was last read or the gate's timer fired: at most STARTS_PER_TICK. */
	private starts = 0;

	join(lane: ExecutionLane): void {
		if (this.lanes.length === 0 && this.inFlight === 0) this.rate.restart(Date.now());
		this.lanes.push(lane);
	}

	leave(lane: ExecutionLane): void {
		this.lanes.splice(this.lanes.indexOf(lane), 1);
		if (this.lanes.length === 0) this.timer?.abort();
		this.dispatch();
	}

	/**
	 * Turn `start` given back: with how its request, sent at `sentAt`, ended (an answer, or none:
	 * a refused connection, a timeout); or without it, its request `sent` (Stop, an error) or not
	 * (unused).
	 */
	giveBack(start: number, sent: boolean, ended?: { sentAt: number; attempt: Attempt }): void {
		this.inFlight--;
		if (!ended) {
			if (sent) this.quota.unread(start);
			else this.quota.unused(start);
			return this.dispatch();
		}
		const { sentAt, attempt } = ended;
		this.starts = 0;
		const now = Date.now();
		const rateLimited = 'failure' in attempt && attempt.failure.code === 'rate_limited';
		this.quota.ended(start, attempt.quota, this.inFlight, now, rateLimited);
		if ('accepted' in attempt) {
			this.accepted++;
			this.rate.acceptedOne(sentAt, now);
		} else if (attempt.failure.pushBack) {
			const afterMs = attempt.failure.pushBack.afterMs ?? 0;
			if (!tooLongToWait(afterMs)) this.rate.pushedBack(sentAt, now, afterMs);
			else this.close(now + afterMs, 'Retry-After');
		}
		this.dispatch();
	}

	/** Nothing more is sent before `until`, as the service said by `by` (a later end is kept). */
	private close(until: number, by: Closure['by']): void {
		if (until > this.closed.until) this.closed = { until, by };
	}

	/**
	 * 0 when a request may start now (it takes that start from the rate), else how long until one
	 * may; infinity: until an answer comes. While the service is closed, turns go at once, unsent.
	 */
	private waitMs(now: number): number {
		if (now < this.closed.until) return 0;
		const quotaMs = this.quota.waitMs(now);
		// The margin is the node's own: a reset told 60 s away is waited for, as a Retry-After is.
		if (tooLongToWait(quotaMs - this.quota.marginMs)) {
			// The answers of requests in flight may tell more of the quota; with none, the service
			// has said that nothing goes before its reset, longer than the node waits.
			const reset = this.quota.reset;
			if (this.inFlight > 0 || !reset) return Number.POSITIVE_INFINITY;
			this.close(reset.at, reset.header);
			return 0;
		}
		return quotaMs > 0 ? quotaMs : this.rate.waitMs(now);
	}

	/**
	 * Lets waiting items go, one per execution in rotation, while the quota, the rate and MAX_IN_FLIGHT
	 * allow.
	 */
	dispatch(): void {
		const now = Date.now();
		while (this.inFlight < MAX_IN_FLIGHT) {
			const at = this.lanes.findIndex((lane) => lane.ready(now));
			if (at === -1) break;
			if (this.starts >= STARTS_PER_TICK) return this.wakeIn(0);
			const waitMs = this.waitMs(now);
			// An answer dispatches again.
			if (waitMs === Number.POSITIVE_INFINITY) return;
			if (waitMs > 0) return this.wakeIn(waitMs);
			const [lane] = this.lanes.splice(at, 1);
			this.lanes.push(lane);
			this.inFlight++;
			this.starts++;
			lane.grant(now, this.quota.start());
		}
		const due = this.lanes.map((lane) => lane.resendAt).filter((at) => at > now && at < Infinity);
		if (due.length > 0) this.wakeIn(Math.min(...due) - now);
	}

	/** Dispatches again in `ms`, unless a wake-up is due sooner. */
	private wakeIn(ms: number): void {
		const at = Date.now() + ms;
		if (this.timer && !this.timer.signal.aborted && this.timerAt <= at) return;
		this.timer?.abort();
		const timer = (this.timer = new AbortController());
		this.timerAt = at;
		void sleep(ms, timer.signal).then(
			() => {
				this.timer = undefined;
				this.starts = 0;
				this.dispatch();
			},
			() => undefined,
		);
	}
}

/** One per `{base_url}` (few), kept for the process's life. */
const gates = new Map<string, ServiceGate>();

/** The gate of the service at `serviceUrl` in this process, made at its first use. */
export function gateFor(serviceUrl: string): ServiceGate {
	return gates.get(serviceUrl) ?? gates.set(serviceUrl, new ServiceGate()).get(serviceUrl)!;
}

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
export class ExecutionLane {
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
