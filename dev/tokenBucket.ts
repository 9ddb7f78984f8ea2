/**
 * A rate limit as a service applies one: a bucket holding one second's worth of requests, refilled
 * continuously; a request that finds it empty is turned away (429). The bench's limited services
 * and the sending engine tests use it.
 */
export class TokenBucket {
	private tokens: number;
	private refilledAt = Date.now();

	constructor(private perSecond: number) {
		this.tokens = perSecond;
	}

	private refillToNow(): void {
		const now = Date.now();
		this.tokens = Math.min(
			this.perSecond,
			this.tokens + ((now - this.refilledAt) / 1000) * this.perSecond,
		);
		this.refilledAt = now;
	}

	/** Whether a request arriving now is taken; it uses up a token. */
	admit(): boolean {
		this.refillToNow();
		if (this.tokens < 1) return false;
		this.tokens--;
		return true;
	}

	/** The limit moves to `perSecond` from now on; what is left stays, up to a second's worth. */
	setRate(perSecond: number): void {
		this.refillToNow();
		this.perSecond = perSecond;
		this.tokens = Math.min(this.tokens, perSecond);
	}

	/** Full again, as a fresh service. */
	refill(): void {
		this.tokens = this.perSecond;
		this.refilledAt = Date.now();
	}
}
