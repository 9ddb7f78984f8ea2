/**
 * What the service's turn-aways cost one execution, counted on the items' way (their Pace): the
 * requests it turned away, those sent again, how long items waited to be sent again, and the most
 * requests it had in flight at once. The hint
 * after the run says it (nodeError.ts `waitHint`); an item's own count fits its advice.
 */
import { isResent } from './resendPolicy';
import type { Pace } from './sending';

export class WaitTally {
	/** Requests the service turned away (429, connection refused): provably no run. */
	turnedAway = 0;
	/** Requests sent again after a turn-away. */
	resent = 0;
	/** Time during which at least one item waited to be sent again. */
	waitedMs = 0;
	/** The most of this execution's requests in flight at once. */
	mostInFlight = 0;
	private inFlight = 0;
	private waiting = 0;
	private waitingSince = 0;

	/** `pace`, counted here, for one item. */
	count(pace: Pace): Pace {
		let sent = 0;
		return {
			get accepted() {
				return pace.accepted;
			},
			attempt: async (send, afterMs) => {
				// A re-send waits from here until its request goes (or it goes unsent).
				let waiting = afterMs !== undefined;
				if (waiting && this.waiting++ === 0) this.waitingSince = Date.now();
				const waited = () => {
					if (!waiting) return;
					waiting = false;
					if (--this.waiting === 0) this.waitedMs += Date.now() - this.waitingSince;
				};
				try {
					const result = await pace.attempt(async () => {
						waited();
						if (sent++ > 0) this.resent++;
						this.mostInFlight = Math.max(this.mostInFlight, ++this.inFlight);
						try {
							return await send();
						} finally {
							this.inFlight--;
						}
					}, afterMs);
					if (result && 'failure' in result && isResent(result.failure)) this.turnedAway++;
					return result;
				} finally {
					waited();
				}
			},
		};
	}
}
