/**
 * How many requests Options → Sending → Adaptive keeps in flight, following the service the way
 * TCP's congestion window follows a network: it grows by two per accepted answer (tripling each
 * round trip) up to the first push-back, by one per accepted answer (doubling) back up to the
 * threshold after one, and by one per round trip above it (additive increase);
 * it halves when the service pushes back (429, 503, connection refused, no answer in time) and
 * shrinks by a quarter when answers slow down (multiplicative decrease). Only one decrease per
 * round trip: answers to requests sent before the last decrease tell of the window before it.
 */

/**
 * The hard cap, for one service in one n8n process (the window is shared: sharedWindow.ts). More in
 * flight than n8n's engine sends per second (BENCHMARKS.md, Throughput) times the answer time cannot
 * go faster, only hold more sockets (n8n's request helper opens a connection per request).
 */
export const MAX_IN_FLIGHT = 256;
/**
 * Requests at once before the service has said anything. Until its first push-back the window
 * triples per round trip, so that a burst of a few hundred items to a slow service (500 ms an
 * answer) takes two round trips, not the four or five TCP's 10 (RFC 6928) and doubling would; a
 * rate-limited service turns the excess away once, which costs those items one of their Retries
 * When Not Accepted (BENCHMARKS.md, At the defaults).
 */
export const INITIAL_WINDOW = 64;
// An answer is slow above twice the usual time plus this margin, so that the jitter of a fast
// service (a few ms) is not taken for congestion.
const SLOW_MARGIN_MS = 100;
// The usual time is the quickest answer, drifting this share of the way toward slower ones per round
// trip (a window's worth of answers): a slowdown shrinks the window for some round trips, and a
// service slower for good is not held at one request.
const USUAL_DRIFT = 0.05;

export class CongestionWindow {
	private size = INITIAL_WINDOW;
	private threshold = MAX_IN_FLIGHT;
	private usualMs = Number.POSITIVE_INFINITY;
	private lastDecreaseAt = Number.NEGATIVE_INFINITY;

	/** Requests that may be in flight now. */
	get limit(): number {
		return Math.floor(this.size);
	}

	/** An answer that accepted a request sent at `sentAt`, `now` later. */
	accepted(sentAt: number, now: number): void {
		const ms = now - sentAt;
		const slow = ms > 2 * this.usualMs + SLOW_MARGIN_MS;
		const drift = USUAL_DRIFT / Math.max(1, this.size);
		this.usualMs = ms < this.usualMs ? ms : this.usualMs + (ms - this.usualMs) * drift;
		if (slow) {
			this.decrease(sentAt, now, 0.75);
			return;
		}
		// No decrease yet: nothing holds the window back but the cap. After one, other processes
		// (queue-mode workers) that waited as long regrow at the same moment: one per answer.
		const blind = this.threshold === MAX_IN_FLIGHT;
		const step = this.size >= this.threshold ? 1 / this.size : blind ? 2 : 1;
		this.size = Math.min(MAX_IN_FLIGHT, this.size + step);
	}

	/**
	 * The service pushed back on a request sent at `sentAt`. When it also asked to wait
	 * (`waitAsked`: a Retry-After), the window starts again from one request after the wait, as TCP's
	 * does after a timeout, and doubles back up to half of what it was: what the service takes after
	 * the wait is unknown, and other processes (queue-mode workers) that waited as long resume at the
	 * same moment. Their first requests thus meet a full rate limit instead of a burst from every
	 * process.
	 */
	pushedBack(sentAt: number, now: number, waitAsked = false): void {
		if (!this.decrease(sentAt, now, 0.5) || !waitAsked) return;
		this.size = 1;
	}

	/** False when this answer tells of a window already decreased since it was sent. */
	private decrease(sentAt: number, now: number, factor: number): boolean {
		if (sentAt <= this.lastDecreaseAt) return false;
		this.lastDecreaseAt = now;
		this.size = Math.max(1, this.size * factor);
		this.threshold = this.size;
		return true;
	}
}
