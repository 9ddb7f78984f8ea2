/**
 * The quota a service tells in its answers (answer/rateLimitHeaders.ts), kept by Sending →
 * Adaptive for one service in one n8n process (serviceGate.ts): a budget of the requests that may
 * start before the quota resets (when that is: windowEnd.ts). Every time is passed in, so the
 * rules are tested with a clock the test controls. Why each rule: docs/sending.md; the figure that
 * keeps the share, the first word and the pace: BENCHMARKS.md, What each part of Adaptive sending
 * buys.
 */
import type { QuotaReading } from '../answer/rateLimitHeaders';

import { tooLongToWait } from './resendPolicy';
import { QuotaClients } from './quotaClients';
import { WindowEnd } from './windowEnd';

/** The longest wait at a reset: a slow service's round trip says nothing of others' arrival. */
const MAX_RESET_WAIT_MS = 1000;

/**
 * Why no 429 follows once an answer has told the quota, in one process: the budget is what the
 * service said remains, less every request that may not be counted in it yet (all in flight when
 * it said so, and each start since); an older answer (more remaining, in the same window) never
 * raises it, but one to a request started after the answer that told is newer: with more
 * remaining, the service renewed the quota before the reset this process reckoned (a reset told
 * in whole seconds is up to a second late, and a process sending across a window's end waited out
 * a whole new window as spent). After the reset one request goes alone until its answer says the
 * quota anew, as the quota need not be whole again (a sliding window, other clients).
 *
 * Why few follow when other clients (queue-mode workers) spend it too: of the budget, a process
 * starts half, rounded up, before the next answer tells it anew, so what another client spends
 * meanwhile is seen before the rest goes. An answer that tells the limit and says more of it was
 * used in the window than this process can have had counted (its requests up to the one answered,
 * and those in flight beside it) tells that others spend it, and so does a 429 saying none
 * remains for a request its budget had room for. The process then reckons the clients: what the
 * window's use grew by ÷ what its own did, since its first answer in the window (a process that
 * came late to a window counted the others' use before it as clients, and took a sliver of the
 * next); at least 2 when the first answer or such a 429 shows others; the most of this window and
 * the last that told any. Of the budget less one request for each client not yet seen in the
 * window (its request alone at the reset is still to come), it starts half of its share. A part
 * of one request is one for the process first to the window (its first answer there shows no use
 * but its own) and none for the others: the first alone knows it is first, and drawn by chance
 * the last free request of a window went to two as often as to none (still drawn when the answers
 * do not tell the limit: then who came first cannot be told). Shared, its request alone at a reset
 * goes at a random point of a round trip after it (the last such request's, at most a second), so
 * that each process is first in turn and, round trips alike, every one is in before the first's
 * next. The first word it hears has no window before it to reckon from: one request goes, whose
 * answer tells. And its share goes paced over the first half of the time to the reset, not at
 * once, so that the answers tell the others' use before its last requests go (a whole share at
 * once, on a word a round trip old, turned requests away in long windows). Not paced alone:
 * nothing to wait for.
 */
export class Quota {
	/** Starts so far: the number of the next one. */
	private starts = 0;
	/** What the service said last, its reset moved as proved; none told, or its reset passed. */
	private told: { remaining: number; resetAt: number; header: QuotaReading['header'] } | undefined;
	/** Requests that may still start before the next answer tells the quota anew. */
	private left = 0;
	/** After a reset: the number of the first start since, the one that goes alone. */
	private probeFrom: number | undefined;
	private probing = false;
	/** Shared with others: when the request alone after the reset goes, and when it went. */
	private probeAt = 0;
	private probeStartedAt = 0;
	/** The last request alone's round trip (answered): the time within which the others' come. */
	private roundTripMs = 0;
	/** When the window ends: the reset kept. */
	private readonly windowEnd = new WindowEnd();
	/** The first start after the answer that told the quota: its answer is a newer word. */
	private toldFrom = 0;
	/** Shared with others: when the next start of this window's share may go (its pace). */
	private nextAt = 0;
	/** A word of the quota was heard: the first has no window before it to reckon clients from. */
	private heardBefore = false;
	/** The clients spending the quota, as this process reckons them. */
	private readonly clients = new QuotaClients();
	/** Requests in flight that a budget had room for: alone, none of them is turned away. */
	private readonly budgeted = new Set<number>();

	/** Added to each reset told (a reset is proved early by a 429 to the request alone at it). */
	get marginMs(): number {
		return this.windowEnd.marginMs;
	}

	/** The reset of a quota told, and the header that told it; undefined when none is known. */
	get reset(): { at: number; header: QuotaReading['header'] } | undefined {
		return this.told && { at: this.told.resetAt, header: this.told.header };
	}

	/**
	 * 0 when a request may start now under the quota, else how long until one may: until the reset
	 * (shared with others, until the request alone after it goes), or (infinity) until that request
	 * is answered.
	 */
	waitMs(now: number): number {
		if (this.told && now >= this.told.resetAt) {
			const { resetAt } = this.told;
			this.windowEnd.passed();
			this.told = undefined;
			this.probeFrom = this.starts;
			this.nextWindow(this.starts);
			const shared = this.clients.count > 1;
			const spread = Math.min(this.roundTripMs, MAX_RESET_WAIT_MS);
			this.probeAt = resetAt + (shared ? Math.random() * spread : 0);
		}
		if (this.told && this.left <= 0) return this.told.resetAt - now;
		if (this.told) return Math.max(0, Math.min(this.nextAt, this.told.resetAt) - now);
		return this.probing ? Number.POSITIVE_INFINITY : Math.max(0, this.probeAt - now);
	}

	/** A request starts at `now` (its turn was given): it spends one. Returns its number. */
	start(now: number): number {
		if (this.told && this.left > 0) this.budgeted.add(this.starts);
		if (this.told) {
			this.left--;
			this.nextAt = this.paced(now);
		}
		if (!this.told && this.probeFrom !== undefined && !this.probing) {
			[this.probing, this.probeStartedAt] = [true, now];
		}
		return this.starts++;
	}

	/**
	 * Request `n` ended at `now` (with an answer, telling the quota or not, or with none: a refused
	 * connection); `rateLimited`: a 429, or a 503 with Retry-After; `othersInFlight`: the requests
	 * in flight beside it, which the service may not have counted yet.
	 */
	ended(
		n: number,
		reading: QuotaReading | undefined,
		othersInFlight: number,
		now: number,
		rateLimited = false,
	): void {
		// Alone, a request its budget had room for is never turned away: others spend the quota.
		if (this.budgeted.delete(n) && rateLimited && reading?.remaining === 0) {
			this.clients.others();
		}
		const atReset = this.probing && n >= this.probeFrom!;
		if (atReset && rateLimited && reading) this.windowEnd.turnedAwayAtReset(reading.resetAt);
		if (atReset && reading) this.roundTripMs = now - this.probeStartedAt;
		// Fewer remaining than told, or the first word: the freshest the node knows. More remaining
		// is an answer the service gave earlier, unless its request started after the one that told.
		const renewed =
			reading && this.told && n >= this.toldFrom && reading.remaining > this.told.remaining;
		if (renewed) this.nextWindow(n);
		if (reading && (!this.told || renewed || reading.remaining <= this.told.remaining)) {
			this.clients.heard(n, reading, othersInFlight);
			const resetAt = this.windowEnd.told(reading, now);
			this.told = { remaining: reading.remaining, resetAt, header: reading.header };
			this.toldFrom = this.starts;
			const farReset = tooLongToWait(reading.resetAt - now);
			const budget = this.half(reading.remaining - othersInFlight, farReset);
			// Processes given their bursts together each hear the quota whole at first: one request,
			// whose answer tells what the others spent meanwhile.
			this.left = this.heardBefore ? budget : Math.min(budget, 1);
			this.heardBefore = true;
			[this.probeFrom, this.probing] = [undefined, false];
		} else if (this.probeFrom !== undefined && n >= this.probeFrom) {
			// Answered without a word of the quota: the service no longer tells it.
			[this.probeFrom, this.probing] = [undefined, false];
		}
	}

	/**
	 * Of `budget`, what starts before the next answer: half, or half of this process's share
	 * (quotaClients.ts). Not a share of a quota that resets later than the node waits: holding its
	 * part back would fail items unsent (serviceGate.ts) that the quota still has room for.
	 */
	private half(budget: number, farReset: boolean): number {
		if (budget <= 0) return budget;
		if (this.clients.count === 1 || farReset) return Math.ceil(budget / 2);
		return this.clients.halfShare(budget);
	}

	/**
	 * When the start after one at `now` may go: shared with others, its share of what remains over
	 * the first half of the time to the reset; alone, or at a reset further off than the node
	 * waits (its items would fail unsent meanwhile), at once.
	 */
	private paced(now: number): number {
		const clients = this.clients.count;
		const toReset = this.told!.resetAt - now;
		if (clients === 1 || tooLongToWait(toReset)) return now;
		const share = Math.max(1, this.told!.remaining / clients);
		return now + toReset / share / 2;
	}

	/** A window ends; request `n` is the first of the next: nothing of it known yet. */
	private nextWindow(n: number): void {
		this.windowEnd.forget();
		this.clients.nextWindow(n);
	}

	/** Request `n` was never sent (its turn went back unused): what it spent comes back. */
	unused(n: number): void {
		this.budgeted.delete(n);
		if (this.told) this.left++;
		if (this.probeFrom !== undefined && n >= this.probeFrom) this.probing = false;
	}

	/** Request `n` was sent and how it ended will not be read (Stop, an error): it stays spent. */
	unread(n: number): void {
		this.budgeted.delete(n);
		if (this.probeFrom !== undefined && n >= this.probeFrom) this.probing = false;
	}
}
