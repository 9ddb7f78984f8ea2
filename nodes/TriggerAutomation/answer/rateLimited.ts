/**
 * An item that fails rate-limited: not sent while a too-long Retry-After lasts or a quota is
 * spent until a reset that far off (the limiter's closure, sending/limiter.ts), or turned away
 * until the re-send policy stopped. Its title says what happened (the retries spent, how often and
 * over how long), its description leads with the advice that fits how it was sent.
 */
import { LABELS, SENDING_MODES, inOptions } from '../description';
import { MAX_WAIT_MS } from '../limits';
import type { Failure } from './failure';
import type { QuotaReading } from './rateLimitHeaders';

/** An item not sent: the service asked an earlier request to wait `waitMs` more, past the limit. */
export function askedToWait(waitMs: number): Failure {
	return {
		code: 'rate_limited',
		message: `Not sent: the service asked to wait ${Math.ceil(waitMs / 1000)} s more (Retry-After), longer than this node waits`,
		description: `Run this item again after that wait. The service answered an earlier request with a Retry-After over ${MAX_WAIT_MS / 1000} s; until it ends, nothing more is sent to it.`,
	};
}

/** Not sent: the service said by `by` (a Retry-After or a quota's header) nothing goes before `until`. */
export function notSent(until: number, by: 'Retry-After' | QuotaReading['header'], now: number) {
	return by === 'Retry-After' ? askedToWait(until - now) : quotaSpent(until, by, now);
}

/** `resetAt` as the editor shows it: UTC, to the next second, "2026-11-21 10:00:30 UTC". */
function utc(resetAt: number): string {
	const second = new Date(Math.ceil(resetAt / 1000) * 1000);
	return `${second.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** Not sent: `header` said no request remains until `resetAt`, more than MAX_WAIT_MS away. */
export function quotaSpent(resetAt: number, header: QuotaReading['header'], now: number): Failure {
	const seconds = Math.ceil((resetAt - now) / 1000);
	return {
		code: 'rate_limited',
		message: `Not sent: the service's quota is spent until ${utc(resetAt)} (in ${seconds} s), longer than this node waits`,
		description:
			`Run this item again after ${utc(resetAt)}, or ask the service's operator for a larger quota. ` +
			`Its answers said (${header} header) that it takes no more requests until then, and the node waits at most ${MAX_WAIT_MS / 1000} s: until then, nothing more is sent to it.`,
	};
}

/** How the item's execution sent, for the advice on a turned-away item. */
export interface RateLimitedSending {
	sending: 'adaptive' | 'batches';
	/** The most requests this execution had in flight at once (Fixed Batches; 1: One at a Time). */
	atOnce: number;
	/** Options → Retries When Not Accepted. */
	retries: number;
}

/** "6 times in 5 s": how often the item was turned away, over how long. */
function howOften({ turnedAway, turnedAwayForMs }: NonNullable<Failure['stopped']>): string {
	if (turnedAway === 1) return 'once';
	return `${turnedAway} times in ${turnedAwayForMs < 1000 ? 'under 1 s' : `${Math.round(turnedAwayForMs / 1000)} s`}`;
}

/**
 * An item the service turned away until the node stopped sending it (429, 503 with Retry-After,
 * connection refused; `stopped`, from the re-send policy): its title says why the node stopped; a
 * 429's or 503's description leads with the advice that fits: a wait longer than the node waits
 * (run later), the retries spent (raise them, or run later), and under Fixed Batches with several
 * requests at once, smaller batches. No advice names a mode not in use.
 */
export function rateLimitAdvice(failure: Failure, how: RateLimitedSending): Failure {
	const { stopped } = failure;
	if (stopped === undefined) return failure;
	const afterS = Math.ceil((failure.pushBack?.afterMs ?? 0) / 1000);
	const why =
		stopped.why === 'wait too long'
			? `asked to wait ${afterS} s (Retry-After), longer than this node waits`
			: stopped.why === 'retries off'
				? `not sent again, as ${LABELS.retries} is 0`
				: `${failure.code === 'rate_limited' ? 'turned away' : 'refused'} ${howOften(stopped)}, retries spent`;
	const message = `${failure.message}: ${why}`;
	if (failure.code !== 'rate_limited') return { ...failure, message };
	let advice: string;
	if (stopped.why === 'wait too long') {
		advice = `Run this item again after that wait: the service asked to wait ${afterS} s (Retry-After), longer than the ${MAX_WAIT_MS / 1000} s this node waits.`;
	} else {
		advice =
			stopped.why === 'retries off'
				? `Raise ${inOptions(LABELS.retries)} (now 0) to have the node wait and send a turned-away item again, or run this item again later.`
				: `Raise ${inOptions(LABELS.retries)} (now ${how.retries}; about one per second of a busy spell), or run this item again later, when the service is less busy: it turned this item away ${howOften(stopped)}.`;
		if (how.sending === 'batches' && how.atOnce > 1) {
			advice += ` ${SENDING_MODES.batches.name} sent up to ${how.atOnce} requests at once: fewer per batch (${inOptions(LABELS.batching, LABELS.batchSize)}) or a longer ${LABELS.batchInterval} keep under the service's limit.`;
		}
	}
	const said = failure.description;
	return { ...failure, message, description: said ? `${advice} ${said}` : advice };
}
