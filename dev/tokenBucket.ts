/**
 * A rate limit as a service applies one: a bucket holding one second's worth of requests, refilled
 * continuously; a request that finds it empty is turned away (429). The bench's limited services
 * and the sending engine tests use it.
 */
export class TokenBucket {
	private tokens: number;
	private refilledAt = Date.now();

	constructor(private readonly perSecond: number) {
		this.tokens = perSecond;
	}

	/** Whether a request arriving now is taken; it uses up a token. */
	admit(): boolean {
		const now = Date.now();
		this.tokens = Math.min(
			this.perSecond,
			this.tokens + ((now - this.refilledAt) / 1000) * this.perSecond,
		);
		this.refilledAt = now;
		if (this.tokens < 1) return false;
		this.tokens--;
		return true;
	}

	/** Full again, as a fresh service. */
	refill(): void {
		this.tokens = this.perSecond;
		this.refilledAt = Date.now();
	}
}
