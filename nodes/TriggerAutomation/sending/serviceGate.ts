/**
 * Sending → Adaptive: one gate per service in this n8n process, shared by the executions sending
 * there (one lane each: executionLane.ts), letting requests start as the quota the service tells
 * (quota.ts), the rate (sendRate.ts) and MAX_IN_FLIGHT allow.
 */
import { sleep } from 'n8n-workflow';

import type { QuotaReading } from '../answer/rateLimitHeaders';
import { MAX_IN_FLIGHT } from '../limits';
import type { Attempt } from '../request/attempt';
import { tooLongToWait } from './resendPolicy';
import { Quota } from './quota';
import { SendRate } from './sendRate';

/**
 * Starts per tick of the event loop, and one more for each answer read in it: between ticks it
 * reads answers, so a 429 is heard early. An answer frees one start, not a tick: a busy process
 * reads its answers one at a time, and its starts would run ahead of what it has sent.
 */
export const STARTS_PER_TICK = 8;
/**
 * First contact with a service, until it pushes back or tells a quota: the first execution's
 * first tick goes at once, the rest of it after an accepted answer or FIRST_TICK_MS from the
 * first request; the other executions' requests two for each accepted answer (twice as many each
 * round trip), and at least twice as many every FIRST_CONTACT_DOUBLING_MS from the first request
 * (a slow service's answers come late, its limiter's 429s at once). Another n8n process may have
 * spent the limit.
 */
export const FIRST_CONTACT_DOUBLING_MS = 100;
/**
 * Long enough for a limiter's 429 to a first tick over its limit to be read in n8n's app (the
 * figure for it and for an answer freeing one start: BENCHMARKS.md, What each part of Adaptive
 * sending buys).
 */
export const FIRST_TICK_MS = 20;

/**
 * The service said nothing more goes to it before `until`, longer than the node waits: by a
 * Retry-After, or by a quota spent until its reset. Until then every turn fails its item unsent.
 */
export interface Closure {
	until: number;
	by: 'Retry-After' | QuotaReading['header'];
}

/** What a gate needs of an execution's lane (executionLane.ts): when it is ready, and its turn. */
export interface Lane {
	/** When its next re-send may go (infinity: none waits). */
	readonly resendAt: number;
	ready(now: number): boolean;
	/** Turn `start` to its first re-send due, else to its first new item. */
	grant(now: number, start: number): void;
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
	private readonly lanes: Lane[] = [];
	private timer: AbortController | undefined;
	private timerAt = 0;
	/** Starts since the gate's timer fired, less one for each answer read: at most STARTS_PER_TICK. */
	private starts = 0;
	/** The first request's execution and start, and since then its starts and the others'. */
	private firstContact: { lane: Lane; at: number; own: number; others: number } | undefined;
	/** The service has pushed back or told a quota: first contact is over. */
	private heard = false;

	join(lane: Lane): void {
		if (this.lanes.length === 0 && this.inFlight === 0) this.rate.restart(Date.now());
		this.lanes.push(lane);
	}

	leave(lane: Lane): void {
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
		this.starts = Math.max(0, this.starts - 1);
		if (attempt.quota || ('failure' in attempt && attempt.failure.pushBack)) this.heard = true;
		const now = Date.now();
		const rateLimited = 'failure' in attempt && attempt.failure.code === 'rate_limited';
		this.quota.ended(start, attempt.quota, this.inFlight, now, rateLimited);
		if ('accepted' in attempt) {
			this.accepted++;
			this.rate.acceptedOne(sentAt, now);
		} else if (attempt.failure.pushBack) {
			const afterMs = attempt.failure.pushBack.afterMs ?? 0;
			// A quota told spent holds every start until its reset: its window teaches no rate.
			if (tooLongToWait(afterMs)) this.close(now + afterMs, 'Retry-After');
			else if (attempt.quota?.remaining !== 0) this.rate.pushedBack(sentAt, now, afterMs);
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

	/** Whether `lane` waits in first contact: for more accepted answers, and for time. */
	private heldInFirstContact(lane: Lane, now: number): boolean {
		const first = this.firstContact;
		if (!first || this.heard) return false;
		const waits =
			lane === first.lane
				? first.own >= STARTS_PER_TICK && this.accepted === 0
				: first.others >= 2 * this.accepted;
		return waits && now < this.firstContactNext(lane);
	}

	/**
	 * When time lets first contact's next start of `lane` go: the first execution's after its
	 * first tick, the others' 2^n − 1 by n doublings.
	 */
	private firstContactNext(lane: Lane): number {
		const { lane: firstLane, at, others } = this.firstContact!;
		if (lane === firstLane) return at + FIRST_TICK_MS;
		return at + FIRST_CONTACT_DOUBLING_MS * Math.log2(others + 2);
	}

	/**
	 * Lets waiting items go, one per execution in rotation, while the quota, the rate and MAX_IN_FLIGHT
	 * allow.
	 */
	dispatch(): void {
		const now = Date.now();
		while (this.inFlight < MAX_IN_FLIGHT) {
			const at = this.lanes.findIndex(
				(lane) => lane.ready(now) && !this.heldInFirstContact(lane, now),
			);
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
			this.firstContact ??= { lane, at: now, own: 0, others: 0 };
			if (lane === this.firstContact.lane) this.firstContact.own++;
			else this.firstContact.others++;
			lane.grant(now, this.quota.start(now));
		}
		const due = this.lanes.map((lane) => lane.resendAt).filter((at) => at > now && at < Infinity);
		for (const lane of this.lanes) {
			if (lane.ready(now) && this.heldInFirstContact(lane, now)) {
				due.push(Math.ceil(this.firstContactNext(lane)));
			}
		}
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
