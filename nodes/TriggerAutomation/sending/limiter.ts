/**
 * Sending → Adaptive's rate limiter: one per service (`{base_url}`) and n8n process, shared by its
 * executions' lanes and dropped with the last. The design and each rule's reason: docs/sending.md.
 */
import { sleep } from 'n8n-workflow';

import type { QuotaReading } from '../answer/rateLimitHeaders';
import { MAX_IN_FLIGHT } from '../limits';
import type { Attempt } from '../request/attempt';
import type { ExecutionLane as Lane } from './executionLane';
import { tooLongToWait } from './resendPolicy';

/** The pause after a push-back without Retry-After: the service's queue drains meanwhile. */
export const SHORT_PAUSE_MS = 100;
/** Requests/s each accepted answer adds while the rate holds starts back: ×1.65 a second. */
export const GROWTH = 0.5;
/** Starts that may go at once under a rate: this long at it, at least two (a late timer). */
export const BURST_MS = 10;

export class ServiceLimiter {
	/** Accepted answers: what the re-send policy counts under Adaptive (resendPolicy.ts). */
	acceptedCount = 0;
	inFlight = 0;
	/** The service said (by a Retry-After or a quota's header) nothing goes before `until`. */
	closed: { until: number; by: 'Retry-After' | QuotaReading['header'] } = {
		until: 0,
		by: 'Retry-After',
	};
	readonly lanes: Lane[] = [];
	/** Requests/s: off (infinity) until the service first pushes back. */
	private perSecond = Infinity;
	private tokens = 0;
	private refilledAt = 0;
	private heldBackAt = -Infinity;
	/** The last pause (its length until the rate is learned), what was accepted since the one before. */
	private pausedAt = -Infinity;
	private pausedUntil = 0;
	private pauseMs = 0;
	private counted = { accepted: 0, since: Date.now() };
	private slowStart = false;
	/** This window's quota: the fewest remaining and the earliest reset told since `windowFrom`. */
	private quota: QuotaReading | undefined;
	private windowFrom = -Infinity;
	/** After a reset, one request goes alone ('sent') until an answer tells the quota anew. */
	private probe: 'none' | 'due' | 'sent' = 'none';
	private timer: AbortController | undefined;
	private timerAt = 0;

	/** A turn given back: its request sent at `sentAt` with what came of it, or unsent. */
	giveBack(ended?: { sentAt: number; attempt?: Attempt }): void {
		this.inFlight--;
		const { sentAt = -Infinity, attempt } = ended ?? {};
		const ofWindow = sentAt >= this.windowFrom;
		if (this.probe === 'sent' && (!ended || ofWindow)) this.probe = attempt ? 'none' : 'due';
		if (attempt) this.onAnswer(sentAt, attempt, ofWindow ? attempt.quota : undefined);
		this.dispatch();
	}

	private onAnswer(sentAt: number, attempt: Attempt, reading?: QuotaReading) {
		const [now, accepted] = [Date.now(), 'accepted' in attempt];
		// An older answer never raises what remains; one that told nothing was counted too.
		if (reading) {
			const { remaining, resetAt } = this.quota ?? reading;
			this.quota = { ...reading, remaining: Math.min(reading.remaining, remaining) };
			this.quota.resetAt = Math.min(reading.resetAt, resetAt);
		} else if (this.quota && accepted) this.quota.remaining--;
		if ('accepted' in attempt) return this.acceptedOne(sentAt, now);
		const afterMs = attempt.failure.pushBack?.afterMs ?? 0;
		if (tooLongToWait(afterMs)) this.close(now + afterMs, 'Retry-After');
		// A quota told spent holds every start until its reset: its window teaches no rate.
		else if (attempt.failure.pushBack && reading?.remaining !== 0) {
			this.pushedBack(sentAt, now, afterMs);
		}
	}

	private acceptedOne(sentAt: number, now: number): void {
		this.acceptedCount++;
		this.counted.accepted++;
		if (this.perSecond === Infinity || now < this.pausedUntil) return;
		if (this.slowStart) this.perSecond += 1000 / Math.max(1, now - sentAt);
		// Only while the rate is what limits: else few items would raise it without bound.
		else if (now - this.heldBackAt < Math.max(1000, 2000 / this.perSecond)) {
			this.perSecond += GROWTH;
		}
	}

	private pushedBack(sentAt: number, now: number, afterMs: number): void {
		// Requests sent before the last pause began tell of the rate before it.
		if (sentAt < this.pausedAt || now < this.pausedUntil) return;
		this.pauseMs = afterMs || SHORT_PAUSE_MS;
		[this.pausedAt, this.pausedUntil, this.slowStart] = [now, now + this.pauseMs, false];
	}

	/** The rate restarts from what was accepted since the last pause; none (busy): slow start. */
	private resume(end = this.pausedUntil, { accepted, since } = this.counted): void {
		this.perSecond = Math.max(1000 / this.pauseMs, (accepted * 1000) / Math.max(1, end - since));
		[this.slowStart, this.pauseMs, this.tokens, this.refilledAt] = [!accepted, 0, 1, end];
		this.counted = { accepted: 0, since: end };
	}

	private close(until: number, by: ServiceLimiter['closed']['by']): void {
		if (until > this.closed.until) this.closed = { until, by };
	}

	/** 0: a request may start under the quota; else how long until one may (infinity: an answer). */
	private quotaWaitMs(now: number): number {
		if (this.quota && now >= this.quota.resetAt) {
			[this.quota, this.windowFrom, this.probe] = [undefined, now, 'due'];
		}
		if (!this.quota) return this.probe === 'sent' ? Infinity : 0;
		const { remaining, resetAt, header } = this.quota;
		if (remaining - this.inFlight > 0) return 0;
		// The answers of those in flight free their part of the budget.
		if (this.inFlight > 0) return Infinity;
		if (!tooLongToWait(resetAt - now)) return resetAt - now;
		this.close(resetAt, header);
		return 0;
	}

	/** 0: a request may start under the rate (it takes the start); else how long until one may. */
	private rateWaitMs(now: number): number {
		if (now < this.pausedUntil) return this.pausedUntil - now;
		if (this.pauseMs > 0) this.resume();
		if (this.perSecond === Infinity) return 0;
		const burst = Math.max(2, (this.perSecond * BURST_MS) / 1000);
		const refilled = this.tokens + ((now - this.refilledAt) * this.perSecond) / 1000;
		[this.tokens, this.refilledAt] = [Math.min(burst, refilled), now];
		if (this.tokens >= 1) {
			this.tokens--;
			return 0;
		}
		this.heldBackAt = now;
		return Math.ceil(((1 - this.tokens) * 1000) / this.perSecond);
	}

	/** How long until a request may start (it takes the start at 0; infinity: an answer). */
	private waitMs(now: number): number {
		// While the service is closed, turns go at once: their items fail unsent.
		const closed = () => now < this.closed.until;
		if (closed()) return 0;
		const quotaMs = this.quotaWaitMs(now);
		return quotaMs > 0 || closed() ? quotaMs : this.rateWaitMs(now);
	}

	/** Lets waiting requests start, one execution's in turn (a rotation), while the limits allow. */
	dispatch(): void {
		const now = Date.now();
		while (this.inFlight < MAX_IN_FLIGHT) {
			const at = this.lanes.findIndex((lane) => lane.ready(now));
			if (at === -1) break;
			const waitMs = this.waitMs(now);
			if (waitMs === Infinity) return;
			if (waitMs > 0) return this.wakeIn(waitMs);
			this.lanes.push(...this.lanes.splice(at, 1));
			this.inFlight++;
			if (this.probe === 'due') this.probe = 'sent';
			this.lanes.at(-1)!.grant();
		}
		const due = this.lanes.map((lane) => lane.resendAt).filter((at) => at > now && at < Infinity);
		if (due.length > 0) this.wakeIn(Math.min(...due) - now);
	}

	/** Dispatches again in `ms`, unless a wake-up is due sooner. */
	private wakeIn(ms: number): void {
		const at = Date.now() + ms;
		if (this.timer && this.timerAt <= at) return;
		this.timer?.abort();
		const timer = (this.timer = new AbortController());
		this.timerAt = at;
		void sleep(ms, timer.signal).then(() => {
			this.timer = undefined;
			this.dispatch();
		}, Boolean);
	}

	/** The limiters of the services sent to now: none is kept once its executions end. */
	private static readonly open = new Map<string, ServiceLimiter>();

	static join(service: string, lane: Lane): ServiceLimiter {
		const limiter = ServiceLimiter.open.get(service) ?? new ServiceLimiter();
		ServiceLimiter.open.set(service, limiter).get(service)!.lanes.push(lane);
		return limiter;
	}

	static leave(service: string, lane: Lane): void {
		const limiter = ServiceLimiter.open.get(service)!;
		limiter.lanes.splice(limiter.lanes.indexOf(lane), 1);
		if (limiter.lanes.length > 0) return limiter.dispatch();
		limiter.timer?.abort();
		ServiceLimiter.open.delete(service);
	}

	static get openCount(): number {
		return ServiceLimiter.open.size;
	}
}
