/**
 * Sending → Adaptive: one gate per service in this n8n process, shared by the executions sending
 * there (one lane each), letting requests start as the rate (sendRate.ts) and MAX_IN_FLIGHT allow.
 */
import { sleep } from 'n8n-workflow';

import type { Failure } from '../answer/failure';
import { MAX_RETRY_WAIT_MS } from '../answer/failure';
import { MAX_IN_FLIGHT } from '../description';
import type { Attempt } from '../request/attempt';
import { SendRate } from './sendRate';
import type { Pace, Sent } from './sending';

/** Starts per turn of the event loop: between them it reads answers, so a 429 is heard early. */
export const STARTS_PER_TURN = 8;

export class ServiceGate {
	readonly rate = new SendRate(Date.now());
	/** Accepted answers so far: a turn-away while others are accepted costs no retry (triggerItem). */
	accepted = 0;
	/** Turns granted and not yet given back: requests in flight. */
	inFlight = 0;
	/** The end of a Retry-After longer than the node waits: until then, nothing is sent. */
	closedUntil = 0;
	/** The executions sending here, in turn order. */
	private readonly lanes: ExecutionLane[] = [];
	private timer: AbortController | undefined;
	private timerAt = 0;
	/** Starts since an answer was last read or the gate's timer fired: at most STARTS_PER_TURN. */
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

	/** A turn given back: with the answer to the request sent at `sentAt`, or unused (none). */
	giveBack(sentAt: number | undefined, failure: Failure | undefined): void {
		this.inFlight--;
		if (sentAt !== undefined) this.starts = 0;
		const now = Date.now();
		if (sentAt !== undefined && !failure) {
			this.accepted++;
			this.rate.acceptedOne(sentAt, now);
		} else if (sentAt !== undefined && failure?.pushBack) {
			const afterMs = failure.pushBack.afterMs ?? 0;
			if (afterMs <= MAX_RETRY_WAIT_MS) this.rate.pushedBack(sentAt, now, afterMs);
			else this.closedUntil = Math.max(this.closedUntil, now + afterMs);
		}
		this.dispatch();
	}

	/** Lets waiting items go, one per execution in turn, while the rate and MAX_IN_FLIGHT allow. */
	dispatch(): void {
		const now = Date.now();
		while (this.inFlight < MAX_IN_FLIGHT) {
			const at = this.lanes.findIndex((lane) => lane.ready(now));
			if (at === -1) break;
			if (this.starts >= STARTS_PER_TURN) return this.wakeIn(0);
			const waitMs = this.rate.waitMs(now);
			if (waitMs > 0) return this.wakeIn(waitMs);
			const [lane] = this.lanes.splice(at, 1);
			this.lanes.push(lane);
			this.inFlight++;
			this.starts++;
			lane.grant(now);
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

/** A waiting request's wake-up: true with a turn, false without one (Stop). */
type Wake = (turn: boolean) => void;

/**
 * One execution's place in the gate, and its items' Pace (sending.ts): its re-sends (in the order
 * turned away) before its new items. A turn is taken and given back in `attempt` only.
 */
export class ExecutionLane implements Pace {
	private readonly gate: ServiceGate;
	private readonly newItems: Wake[] = [];
	private readonly resends: Array<{ notBefore: number; wake: Wake }> = [];
	private room_: Array<() => void> = [];
	private readonly onStop = () => this.release();

	constructor(
		serviceUrl: string,
		private readonly stop: AbortSignal | undefined,
	) {
		this.gate = gates.get(serviceUrl) ?? gates.set(serviceUrl, new ServiceGate()).get(serviceUrl)!;
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

	/** The turn to the first re-send due, else to the first new item (there is one: `ready`). */
	grant(now: number): void {
		const at = this.resends.findIndex((resend) => resend.notBefore <= now);
		const wake = at === -1 ? this.newItems.shift()! : this.resends.splice(at, 1)[0].wake;
		wake(true);
		if (this.newItems.length === 0) this.makeRoom();
	}

	/** Until no new item of this execution waits for its turn (or Stop). */
	async room(): Promise<void> {
		if (this.newItems.length === 0 || this.stop?.aborted) return;
		await new Promise<void>((resolve) => this.room_.push(resolve));
	}

	async attempt(send: () => Promise<Attempt>, afterMs?: number): Promise<Sent | undefined> {
		if (this.stop?.aborted) return undefined;
		const turn = new Promise<boolean>((wake) =>
			afterMs === undefined
				? this.newItems.push(wake)
				: this.resends.push({ notBefore: Date.now() + afterMs, wake }),
		);
		this.gate.dispatch();
		if (!(await turn)) return undefined;
		let attempt: Attempt | undefined;
		const sentAt = Date.now();
		try {
			const closedForMs = this.gate.closedUntil - sentAt;
			if (closedForMs > 0) return { closedForMs };
			// Stopped while it waited: its turn goes back unused.
			if (this.stop?.aborted) return undefined;
			attempt = await send();
			return attempt;
		} finally {
			// An answer to a stopped execution's aborted request says nothing of the service.
			const answered = attempt !== undefined && !this.stop?.aborted;
			this.gate.giveBack(
				answered ? sentAt : undefined,
				attempt && 'failure' in attempt ? attempt.failure : undefined,
			);
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
		for (const wake of this.newItems.splice(0)) wake(false);
		for (const { wake } of this.resends.splice(0)) wake(false);
		this.makeRoom();
	}
}
