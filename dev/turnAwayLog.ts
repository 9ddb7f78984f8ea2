/**
 * What the simulator turns away, told as it happens in the terminal of `npm run dev` and `npm start
 * -- --serve`: at most one line a second, however many requests it turns away, so that a run that
 * waits on the service does not look like a hang there.
 */

/** Why the simulator answered 429. */
export type TurnAwayReason = 'busy spell' | 'rate limit' | 'simulated failure';

export class TurnAwayLog {
	private readonly counts = new Map<TurnAwayReason, number>();
	private timer: NodeJS.Timeout | undefined;
	/** When the last line was printed. */
	private printedAt = Number.NEGATIVE_INFINITY;

	constructor(
		private readonly print: (line: string) => void,
		private readonly now: () => number = Date.now,
		private readonly intervalMs = 1000,
	) {}

	/** One request turned away with 429. */
	turnedAway(reason: TurnAwayReason): void {
		this.counts.set(reason, (this.counts.get(reason) ?? 0) + 1);
		if (this.timer) return;
		const dueIn = this.printedAt + this.intervalMs - this.now();
		if (dueIn <= 0) return this.flush();
		this.timer = setTimeout(() => this.flush(), dueIn);
	}

	/** Prints what is left untold (at a stop too). */
	flush(): void {
		clearTimeout(this.timer);
		this.timer = undefined;
		if (this.counts.size === 0) return;
		const total = [...this.counts.values()].reduce((sum, n) => sum + n, 0);
		const why = [...this.counts].map(([reason, n]) => `${n} by the ${reason}`).join(', ');
		const time = new Date(this.now()).toTimeString().slice(0, 8);
		this.print(
			`${time} Simulator: turned away ${total} request${total === 1 ? '' : 's'} with 429, Retry-After: 1 (${why})`,
		);
		this.counts.clear();
		this.printedAt = this.now();
	}
}
