/**
 * When the next request to one service may start, under Sending → Adaptive: no limit until the
 * service pushes back, then a pause (the Retry-After asked for, or a short one), a rate learned from
 * what it accepted, and growth while the rate holds starts back and the service accepts them.
 * Every time is passed in, so the rules are tested with a clock the test controls. Why each rule:
 * docs/sending.md; the figure that keeps each: BENCHMARKS.md, What each part of Adaptive sending
 * buys.
 */

/** The pause after a push-back without Retry-After: the service's queue drains meanwhile. */
export const SHORT_PAUSE_MS = 100;
/** Rate/s added per accepted answer while the rate holds starts back: ×e^GROWTH per second. */
export const GROWTH = 0.5;
/**
 * Back from a busy spell with no rate known: starts per round trip each accepted answer adds, from
 * one per round trip: ×1.25 a round trip, so the first 429 comes at a rate a few times the limit's.
 * The ramp's round trip is the answer's, or, if the service turned requests away sooner, the time
 * that took (a limiter answers before the work), at least MIN_RAMP_ROUND_TRIP_MS.
 */
export const RAMP_UP = 0.25;
/** The shortest ramp round trip: a busy process reads its answers late. */
export const MIN_RAMP_ROUND_TRIP_MS = 50;
/**
 * A pause learns at least this part of the rate the pause before learned: one pause's count is a
 * small sample (others spent the room as it ended: one answer, and the rate fell to one per
 * pause), and a rate cut by the same part for every n8n process never evens out. A limit that
 * fell is found within a few pauses.
 */
export const LEAST_KEPT = 0.5;
/** What was accepted since the last pause sets the rate once counted over this long. */
const DELIVERY_WINDOW_MS = 250;
/** Starts that may go at once: this long at the rate, at least two (a late timer costs no start). */
const BURST_MS = 10;

export class SendRate {
	/** Infinity until the service first pushes back: until then the gate alone bounds a burst. */
	perSecond = Number.POSITIVE_INFINITY;
	private tokens = 0;
	private refilledAt: number;
	/** Answers accepted since `countingSince`: what the service takes, learned as they come. */
	private accepted = 0;
	private countingSince: number;
	private pausedUntil = 0;
	private pauseMs = 0;
	/** The rate before the service was busy, back at its first accepted answer after a pause. */
	private beforeBusy = 0;
	private decreasedAt = Number.NEGATIVE_INFINITY;
	/**
	 * When the rate last held a start back: growth only while the rate is what limits (under 1/s
	 * its starts are over a second apart: a hold since the start before counts).
	 */
	private heldBackAt = Number.NEGATIVE_INFINITY;
	/** Back from a busy spell with no rate known: RAMP_UP per answer until the next push-back. */
	private rampingUp = false;
	/** How long the last push-back took from its start: how soon a rate too high is heard. */
	private pushedBackInMs = Number.POSITIVE_INFINITY;
	/** The rate the last pause that learned one learned. */
	private learnedAtPause = 0;
	/** The end of the last pause that learned a rate, and one interval at that rate. */
	private resumed = { at: Number.NEGATIVE_INFINITY, intervalMs: 0 };
	/**
	 * A start in the first interval after such a pause was pushed back: the room that refilled during
	 * the pause was spent meanwhile (other processes, a limiter that drains slower than the pause).
	 */
	private roomSpentInPauses = false;

	constructor(now: number) {
		this.refilledAt = this.countingSince = now;
	}

	/** 0 when a request may start now (it takes that start), else how long until one may. */
	waitMs(now: number): number {
		if (now < this.pausedUntil) return this.pausedUntil - now;
		if (this.pauseMs > 0) this.resume();
		if (this.perSecond === Number.POSITIVE_INFINITY) return 0;
		const burst = Math.max(2, (this.perSecond * BURST_MS) / 1000);
		const refilled = this.tokens + ((now - this.refilledAt) * this.perSecond) / 1000;
		this.tokens = Math.min(burst, refilled);
		this.refilledAt = now;
		if (this.tokens < 1) {
			this.heldBackAt = now;
			return Math.ceil(((1 - this.tokens) * 1000) / this.perSecond);
		}
		this.tokens--;
		return 0;
	}

	/**
	 * Accepted: back from a busy pause, the rate from before at once, or with none known (busy from
	 * the first request), one start per ramp round trip and RAMP_UP more per answer until the next
	 * push-back; else at least what the service accepted since the last pause, and while the rate
	 * holds starts back, GROWTH more per answer.
	 */
	acceptedOne(sentAt: number, now: number): void {
		this.accepted++;
		const roundTripMs = Math.max(1, now - sentAt);
		const rampMs = Math.min(roundTripMs, Math.max(this.pushedBackInMs, MIN_RAMP_ROUND_TRIP_MS));
		if (this.beforeBusy !== 0 && sentAt >= this.pausedUntil) {
			this.rampingUp = this.beforeBusy === Number.POSITIVE_INFINITY;
			this.perSecond = this.rampingUp ? Math.max(this.perSecond, 1000 / rampMs) : this.beforeBusy;
			this.beforeBusy = 0;
			this.count(now);
			return;
		}
		if (this.perSecond === Number.POSITIVE_INFINITY || now < this.pausedUntil) return;
		const counted = now - this.countingSince;
		if (counted >= DELIVERY_WINDOW_MS) {
			// The first of them started as the count did: n answers tell of n − 1 intervals.
			this.perSecond = Math.max(this.perSecond, ((this.accepted - 1) * 1000) / counted);
		}
		// Held back within the last second, or, under 1/s, since the start before this one.
		if (now - this.heldBackAt >= Math.max(1000, 1000 / this.perSecond + roundTripMs)) return;
		this.perSecond += this.rampingUp ? (RAMP_UP * 1000) / rampMs : GROWTH;
	}

	/**
	 * Pushed back (429, 503, refused, no answer in time): pause every start for the `pauseMs` asked
	 * for, or SHORT_PAUSE_MS; once per round trip, as answers to requests sent before the last
	 * push-back tell of the rate before it.
	 */
	pushedBack(sentAt: number, now: number, pauseMs = 0): void {
		this.pushedBackInMs = Math.max(1, now - sentAt);
		if (sentAt >= this.resumed.at && sentAt < this.resumed.at + this.resumed.intervalMs) {
			this.roomSpentInPauses = true;
		}
		if (sentAt <= this.decreasedAt || now < this.pausedUntil) return;
		this.decreasedAt = now;
		this.rampingUp = false;
		const ms = pauseMs > 0 ? pauseMs : SHORT_PAUSE_MS;
		[this.pausedUntil, this.pauseMs] = [now + ms, ms];
	}

	/**
	 * Executions send after a time with none: counting starts again (that time is no rate the
	 * service set). Nothing of it is saved up: the rate learned goes on (BENCHMARKS.md
	 * has the figure).
	 */
	restart(now: number): void {
		this.count(now);
	}

	private count(now: number): void {
		this.accepted = 0;
		this.countingSince = now;
	}

	/**
	 * A pause has ended: the rate is what was accepted from the last pause's end to this one's (at
	 * least LEAST_KEPT of what the pause before learned), or, if nothing was (busy: no word on its
	 * rate), one request per pause until one is accepted. The first start goes at once, as a process
	 * alone finds the room whole; once the room was found spent at a pause's end, after a pause that
	 * learned a rate it waits one interval at it.
	 */
	private resume(): void {
		const end = this.pausedUntil;
		const learned = (this.accepted * 1000) / Math.max(1, end - this.countingSince);
		this.beforeBusy = this.accepted === 0 ? Math.max(this.beforeBusy, this.perSecond) : 0;
		const learnedOne = this.accepted > 0;
		const kept = learnedOne ? this.learnedAtPause * LEAST_KEPT : 0;
		this.perSecond = Math.max(1000 / this.pauseMs, learned, kept);
		if (learnedOne) this.learnedAtPause = this.perSecond;
		const at = learnedOne ? end : Number.NEGATIVE_INFINITY;
		this.resumed = { at, intervalMs: 1000 / this.perSecond };
		const tokens = learnedOne && this.roomSpentInPauses ? 0 : 1;
		[this.pauseMs, this.tokens, this.refilledAt] = [0, tokens, end];
		this.count(end);
	}
}
