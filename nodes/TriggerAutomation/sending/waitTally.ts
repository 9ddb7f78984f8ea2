/**
 * What the service's turn-aways cost one execution, as each Sending mode's Pace counts its attempts
 * (`track`): for the hint after the run (nodeError.ts `waitHint`) and Fixed Batches' advice.
 */
import type { TurnAwayCost } from '../answer/nodeError';
import type { Attempt } from '../request/attempt';
import { isResent } from './resendPolicy';

/** What a pace tells of one attempt: its request goes now, and what came of it. */
export interface Tracked {
	sent(): void;
	done(attempt: Attempt | undefined): void;
}

export class WaitTally implements TurnAwayCost {
	/** Requests the service turned away: provably no run. */
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

	/** An attempt asked of a pace: a re-send waits from now until its request goes, or it goes unsent. */
	track(resend: boolean): Tracked {
		let waiting = resend;
		let sent = false;
		if (waiting && this.waiting++ === 0) this.waitingSince = Date.now();
		const waited = () => {
			if (!waiting) return;
			waiting = false;
			if (--this.waiting === 0) this.waitedMs += Date.now() - this.waitingSince;
		};
		return {
			sent: () => {
				waited();
				sent = true;
				if (resend) this.resent++;
				this.mostInFlight = Math.max(this.mostInFlight, ++this.inFlight);
			},
			done: (attempt) => {
				waited();
				if (sent) this.inFlight--;
				if (attempt && 'failure' in attempt && isResent(attempt.failure)) this.turnedAway++;
			},
		};
	}
}
