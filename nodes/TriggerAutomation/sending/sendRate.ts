/**
 * When the next request to one service may start, under Sending → Adaptive: a pause the service
 * asked for (Retry-After), and a rate learned from its answers. Every time is passed in, so the rules
 * are tested with a clock the test controls. Why each rule: docs/sending.md.
 */

/** Requests per second before the service has pushed back: spread, so a 429 is heard early. */
export const START_RATE = 1000;
/** Starts that may go at once: this long at the rate, at least two (a late timer costs no start). */
const BURST_MS = 10;

export class SendRate {
	perSecond = START_RATE;
	private tokens = (START_RATE * BURST_MS) / 1000;
	private refilledAt: number;
	/** Accepted answers since `countingSince`: what the service takes, learned at a pause's end. */
	private accepted = 0;
	private countingSince: number;
	private pausedUntil = 0;
	private pauseMs = 0;
	/** The rate before the service was busy, back at its first accepted answer after a pause. */
	private beforeBusy = 0;
	private decreasedAt = Number.NEGATIVE_INFINITY;

	constructor(now: number) {
		this.refilledAt = this.countingSince = now;
	}

	/** 0 when a request may start now (it takes that start), else how long until one may. */
	waitMs(now: number): number {
		if (now < this.pausedUntil) return this.pausedUntil - now;
		if (this.pauseMs > 0) this.resume();
		const burst = Math.max(2, (this.perSecond * BURST_MS) / 1000);
		this.tokens = Math.min(burst, this.tokens + ((now - this.refilledAt) * this.perSecond) / 1000);
		this.refilledAt = now;
		if (this.tokens < 1) return Math.ceil(((1 - this.tokens) * 1000) / this.perSecond);
		this.tokens--;
		return 0;
	}

	/** Accepted: one request/s more per second of these, or the rate before a busy pause at once. */
	acceptedOne(sentAt: number, now: number): void {
		this.accepted++;
		if (this.beforeBusy === 0 || sentAt < this.pausedUntil) {
			this.perSecond += 1 / this.perSecond;
			return;
		}
		this.perSecond = this.beforeBusy;
		this.beforeBusy = 0;
		this.restart(now);
	}

	/**
	 * Pushed back (429, 503, refused, no answer in time): wait the `pauseMs` asked for, or halve the
	 * rate; once per round trip, as answers to requests sent before the last decrease tell of it.
	 */
	pushedBack(sentAt: number, now: number, pauseMs = 0): void {
		if (sentAt <= this.decreasedAt) return;
		this.decreasedAt = now;
		if (pauseMs === 0) this.perSecond = Math.max(1, this.perSecond / 2);
		else [this.pausedUntil, this.pauseMs] = [now + pauseMs, pauseMs];
	}

	/** Counting starts again: executions send after a time with none, which is no rate it set. */
	restart(now: number): void {
		this.accepted = 0;
		this.countingSince = now;
	}

	/**
	 * A pause has ended: the rate is what was accepted from the last pause's end to this one's, or,
	 * if nothing was (busy: no word on its rate), one request per pause until one is accepted.
	 */
	private resume(): void {
		const end = this.pausedUntil;
		const learned = (this.accepted * 1000) / Math.max(1, end - this.countingSince);
		this.beforeBusy = this.accepted === 0 ? Math.max(this.beforeBusy, this.perSecond) : 0;
		this.perSecond = Math.max(1000 / this.pauseMs, learned);
		[this.pauseMs, this.tokens, this.refilledAt] = [0, 1, end];
		this.restart(end);
	}
}
