/**
 * The clients spending a quota a service tells, as one n8n process reckons them from the answers
 * (quota.ts keeps the quota): how many, whether this process came to the window first, and so
 * its share. Every count is passed in. Why each rule: quota.ts's note and docs/sending.md; the
 * figures: BENCHMARKS.md, What each part of Adaptive sending buys.
 */
import type { QuotaReading } from '../answer/rateLimitHeaders';

export class QuotaClients {
	/** The number of this window's first start, to count this process's use in it. */
	private windowFrom = 0;
	/**
	 * This window's first answer telling the limit: this process's use counted (its requests up to
	 * the one answered, `started`, and those in flight beside it), and the window's.
	 */
	private firstCount: { started: number; own: number; used: number } | undefined;
	/** The most use of others any answer of this window showed; none told the limit: undefined. */
	private othersSeen: number | undefined;
	/** Clients spending the quota, as this process reckons: in this window, and in the last. */
	private clients = 1;
	private lastClients = 1;
	/** This window's answers told something of the clients (else the last window's stands). */
	private reckoned = false;

	/**
	 * This window's first answer showed no use but this process's own requests up to it: it came
	 * to the window first (not by those in flight beside it: they may be the last window's).
	 */
	private get firstToWindow(): boolean {
		return this.firstCount !== undefined && this.firstCount.used <= this.firstCount.started;
	}

	/** Clients spending the quota, as reckoned in this window and the last that told any. */
	get count(): number {
		return Math.max(this.clients, this.lastClients);
	}

	/** Others spend it too: a 429 said none remains for a request the budget had room for. */
	others(): void {
		this.clients = Math.max(this.clients, 2);
	}

	/**
	 * Request `n`'s answer told `reading`, `othersInFlight` beside it. The window's first says
	 * whether more was used than this process can have had counted (its requests up to `n`, and
	 * those in flight beside it, which the service may have counted already); each after it, how
	 * much the window's use grew beside this process's own.
	 */
	heard(n: number, reading: QuotaReading, othersInFlight: number): void {
		if (n < this.windowFrom || reading.limit === undefined) return;
		const started = n - this.windowFrom + 1;
		const own = started + othersInFlight;
		const used = reading.limit - reading.remaining;
		// `own` may count requests the service has not yet: others' use is at least this much.
		this.othersSeen = Math.max(this.othersSeen ?? 0, used - own);
		if (this.firstCount === undefined) {
			this.firstCount = { started, own, used };
			if (used > own) [this.clients, this.reckoned] = [Math.max(this.clients, 2), true];
		} else if (own > this.firstCount.own) {
			const growth = (used - this.firstCount.used) / (own - this.firstCount.own);
			[this.clients, this.reckoned] = [Math.max(this.clients, growth), true];
		}
	}

	/**
	 * Of `budget`, half of this process's share: less one request for each client not yet seen in
	 * the window, a part of a request rounded up by the process first to the window, down by the
	 * others; drawn by chance when no answer told the limit (who came first cannot be told).
	 */
	halfShare(budget: number): number {
		const clients = this.count;
		if (this.othersSeen === undefined) {
			const part = budget / clients / 2;
			return Math.floor(part) + (Math.random() < part % 1 ? 1 : 0);
		}
		// Each client seen spent one at least; the others' requests alone are still to come.
		const unseen = Math.max(0, Math.ceil(clients) - 1 - this.othersSeen);
		const share = Math.max(0, budget - unseen) / clients / 2;
		return this.firstToWindow ? Math.ceil(share) : Math.floor(share);
	}

	/** A window ends; request `n` is the first of the next: nothing of it known yet. */
	nextWindow(n: number): void {
		[this.firstCount, this.othersSeen] = [undefined, undefined];
		this.windowFrom = n;
		if (this.reckoned) [this.lastClients, this.clients] = [this.clients, 1];
		this.reckoned = false;
	}
}
