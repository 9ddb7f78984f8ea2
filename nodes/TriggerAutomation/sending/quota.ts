/**
 * The quota a service tells in its answers (answer/rateLimitHeaders.ts), kept by Sending →
 * Adaptive for one service in one n8n process (serviceGate.ts): a budget of the requests that may
 * start before the quota resets. Every time is passed in, so the rules are tested with a clock the
 * test controls. Why each rule: docs/sending.md.
 */
import type { QuotaReading } from '../answer/rateLimitHeaders';

/**
 * Added to every reset told: its seconds are rounded (up, down or to the nearest) and counted from
 * when the service answered, before the node read the answer. One second later, the quota has
 * reset whatever the rounding.
 */
export const RESET_MARGIN_MS = 1000;

/**
 * Why no 429 follows once an answer has told the quota, in one process: the budget is what the
 * service said remains, less every request that may not be counted in it yet (all in flight when
 * it said so, and each start since); an older answer (more remaining, in the same window) never
 * raises it; and after the reset one request goes alone until its answer says the quota anew,
 * as the quota need not be whole again (a sliding window, other clients).
 */
export class Quota {
	/** Starts so far: the number of the next one. */
	private starts = 0;
	/** What the service said last, the reset with RESET_MARGIN_MS; none told, or its reset passed. */
	private told: { remaining: number; resetAt: number; header: QuotaReading['header'] } | undefined;
	/** Requests that may still start before the reset. */
	private left = 0;
	/** After a reset: the number of the first start since, the one that goes alone. */
	private probeFrom: number | undefined;
	private probing = false;

	/** The reset of a quota told, and the header that told it; undefined when none is known. */
	get reset(): { at: number; header: QuotaReading['header'] } | undefined {
		return this.told && { at: this.told.resetAt, header: this.told.header };
	}

	/**
	 * 0 when a request may start now under the quota, else how long until one may: until the reset,
	 * or (infinity) until the request that goes alone after a reset is answered.
	 */
	waitMs(now: number): number {
		if (this.told && now >= this.told.resetAt) {
			this.told = undefined;
			this.probeFrom = this.starts;
		}
		if (this.told) return this.left > 0 ? 0 : this.told.resetAt - now;
		return this.probing ? Number.POSITIVE_INFINITY : 0;
	}

	/** A request starts (its turn was given): it spends one. Returns its number. */
	start(): number {
		if (this.told) this.left--;
		if (!this.told && this.probeFrom !== undefined) this.probing = true;
		return this.starts++;
	}

	/**
	 * Request `n` ended (with an answer, telling the quota or not, or with none: a refused
	 * connection); `othersInFlight`: the requests in flight beside it, which the service may not
	 * have counted yet.
	 */
	ended(n: number, reading: QuotaReading | undefined, othersInFlight: number): void {
		// Fewer remaining than told, or the first word: the freshest the node knows. More remaining
		// is an answer the service gave earlier (or a new window, met once the reset has passed).
		if (reading && (!this.told || reading.remaining <= this.told.remaining)) {
			const resetAt = reading.resetAt + RESET_MARGIN_MS;
			this.told = { remaining: reading.remaining, resetAt, header: reading.header };
			this.left = reading.remaining - othersInFlight;
			[this.probeFrom, this.probing] = [undefined, false];
		} else if (this.probeFrom !== undefined && n >= this.probeFrom) {
			// Answered without a word of the quota: the service no longer tells it.
			[this.probeFrom, this.probing] = [undefined, false];
		}
	}

	/** Request `n` was never sent (its turn went back unused): what it spent comes back. */
	unused(n: number): void {
		if (this.told) this.left++;
		if (this.probeFrom !== undefined && n >= this.probeFrom) this.probing = false;
	}

	/** Request `n` was sent and how it ended will not be read (Stop, an error): it stays spent. */
	unread(n: number): void {
		if (this.probeFrom !== undefined && n >= this.probeFrom) this.probing = false;
	}
}
