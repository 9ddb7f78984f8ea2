/**
 * How fast requests to a service start once it has asked to wait (Retry-After): no faster than it
 * accepted them since the pause before. A rate limit is a number of requests per interval, which a
 * window of requests in flight does not follow: at a short answer time even a window of one
 * overruns it. Other n8n processes (queue-mode workers) sending to the same service get the rest of
 * its limit, so each learns its share and meets the limit once in a while instead of at every pause,
 * which keeps the turn-aways, and the Retries When Not Accepted they cost, few (BENCHMARKS.md).
 */
export class RatePacer {
	/** Between request starts; 0 (no pace) until the service first asks to wait. */
	private gapMs = 0;
	private nextStartAt = 0;
	private accepted = 0;

	/** `since`: when counting accepted answers starts (the window's first use). */
	constructor(private since = Date.now()) {}

	/**
	 * A pause the service asked for (`pauseMs`) has ended: the pace becomes what it accepted since
	 * the last, and at least one request per such pause, which the service itself asked for.
	 */
	resumed(now: number, pauseMs: number): void {
		this.gapMs = Math.min(pauseMs, (now - this.since) / Math.max(1, this.accepted));
		this.restart(now);
	}

	/** Counting starts again: after a pause, or when executions send again after none did. */
	restart(now: number): void {
		this.accepted = 0;
		this.since = now;
	}

	/** An accepted answer: at this pace, one request/s more every second (additive increase). */
	acceptedOne(): void {
		this.accepted++;
		if (this.gapMs > 0) this.gapMs = 1000 / (1000 / this.gapMs + this.gapMs / 1000);
	}

	/** 0 when a request may start now (it takes that start), else how long until one may. */
	waitMs(now: number): number {
		if (now < this.nextStartAt) return this.nextStartAt - now;
		// Idle time is not saved up: after a quiet spell, requests start one gap apart again.
		this.nextStartAt = now + this.gapMs;
		return 0;
	}
}
