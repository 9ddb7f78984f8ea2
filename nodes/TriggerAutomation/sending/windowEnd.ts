/**
 * When the window of a quota a service tells ends, for the quota it belongs to (quota.ts): the
 * reset a budget is kept until. Every time is passed in, as in quota.ts. Why each rule:
 * docs/sending.md; the figures of the reset's bound and of the window carried on: BENCHMARKS.md,
 * What each part of Adaptive sending buys.
 */
import type { QuotaReading } from '../answer/rateLimitHeaders';

/** What a reset told in whole seconds may be off by, rounded either way. */
const ROUNDING_MS = 1000;
/**
 * Added to the resets a service tells once one proved early: its seconds are rounded (up, down or
 * to the nearest) and counted from when it answered. A second later, the quota has reset
 * whatever the rounding.
 */
export const RESET_MARGIN_MS = ROUNDING_MS;

/**
 * The reset is the earliest any answer of the window told: each counted from when the service
 * answered, rounded up, is a time the window cannot end after, and a reset told up to a second
 * late made a process come to every window after the others had spent it. When the service tells
 * its window's length, the last window's bound carried on by it is one too: with few answers in a
 * window, a bound is up to a second late, and processes sharing a quota of 50 per 1 s came to each
 * window one after another, the first taking most of it. Until the request alone at a carried
 * reset is turned away (windows that start with use, or slide): then resets as told. Until a
 * service proves it rounds its resets down (one 429, once): then a second late.
 */
export class WindowEnd {
	/** The reset this window is kept until (its bound, with the margin); none told this window. */
	private at: number | undefined;
	/** The reset the last window ended at (with the margin): to tell a reset told early. */
	private endedAt = 0;
	/** Added to each reset told: 0 until one proved early, then RESET_MARGIN_MS. */
	private margin = 0;
	/** The earliest reset any answer of this window told: the window ends by then. */
	private bound: number | undefined;
	/** The last window's bound, carried a window's length on when the service tells the length. */
	private lastBound: number | undefined;
	/** This window's bound is the last one's carried on, no answer of it told an earlier one. */
	private boundCarried = false;
	/** Until a request alone at a carried reset is turned away: windows follow one another. */
	private carries = true;

	/** Added to each reset told (a reset is proved early by a 429 to the request alone at it). */
	get marginMs(): number {
		return this.margin;
	}

	/** An answer read at `now` told `reading`: the reset to keep the quota until. */
	told(reading: QuotaReading, now: number): number {
		const sameWindow = this.bound !== undefined && now < this.at!;
		const bound = sameWindow
			? Math.min(this.bound!, reading.resetAt)
			: this.carriedBound(reading, now);
		this.boundCarried = bound !== reading.resetAt && (!sameWindow || this.boundCarried);
		this.bound = this.lastBound = bound;
		return (this.at = bound + this.margin);
	}

	/** The reset kept was reached: the window ended there. */
	passed(): void {
		this.endedAt = this.at!;
	}

	/** A window ends (its reset passed, or the service renewed it): nothing of the next known. */
	forget(): void {
		[this.bound, this.at] = [undefined, undefined];
	}

	/**
	 * A new window's first bound: as its first answer told, or the last window's carried on by the
	 * window's length the service tells, when that is earlier and agrees with the answer (within the
	 * second its reset is rounded to). An answer's reset is a bound up to a second late, and so is
	 * every window's end when its answers are few; windows following one another end a length
	 * apart, so a bound once close to the end stays close.
	 */
	private carriedBound(reading: QuotaReading, now: number): number {
		const length = reading.windowMs;
		if (!this.carries || length === undefined || this.lastBound === undefined) {
			return reading.resetAt;
		}
		const carried =
			this.lastBound + length * Math.max(1, Math.ceil((now - this.lastBound) / length));
		const agrees = carried < reading.resetAt && carried > reading.resetAt - ROUNDING_MS;
		return agrees ? carried : reading.resetAt;
	}

	/**
	 * The request alone at a reset was turned away, told `resetAt`. At a reset carried on, the
	 * service's windows do not follow one another: from now on, none is carried. Else, by the
	 * window it was to follow (a reset told within a second of the one passed), it went early: the
	 * service rounds its resets down (or its clock is behind): from now on they are taken a second
	 * late. By a window told further off, others spent the next window before it came: nothing to
	 * learn of the reset.
	 */
	turnedAwayAtReset(resetAt: number): void {
		if (this.boundCarried) this.carries = false;
		else if (resetAt <= this.endedAt + RESET_MARGIN_MS) this.margin = RESET_MARGIN_MS;
	}
}
