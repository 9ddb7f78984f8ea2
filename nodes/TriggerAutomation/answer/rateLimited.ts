/**
 * An item that ends turned away: unsent while a too-long Retry-After lasts, or turned away until
 * the node gave up. Its title then says what happened (the retries spent, how often and over how
 * long), its description leads with the advice that fits how it was sent.
 */
import { LABELS, SENDING_MODES, inOptions } from '../description';
import type { Failure } from './failure';
import { MAX_RETRY_WAIT_MS } from './failure';

/** An item not sent: the service asked an earlier request to wait `waitMs` more, past the limit. */
export function askedToWait(waitMs: number): Failure {
	return {
		code: 'rate_limited',
		resend: false,
		message: `Not sent: the service asked to wait ${Math.ceil(waitMs / 1000)} s more (Retry-After), longer than this node waits`,
		description: `Run this item again after that wait. The service answered an earlier request with a Retry-After over ${MAX_RETRY_WAIT_MS / 1000} s; until it ends, nothing more is sent to it.`,
	};
}

/** How an item the service turned away (429, 503 with Retry-After, refused) was sent, until it failed. */
export interface RateLimitedSending {
	sending: 'adaptive' | 'batches';
	/** The most requests this execution had in flight at once (Fixed Batches; 1: One at a Time). */
	atOnce: number;
	/** Options → Retries When Not Accepted. */
	retries: number;
	/** This item's requests the service turned away. */
	turnedAway: number;
	/** From this item's first request to its last answer. */
	spentMs: number;
}

/** "6 times in 5 s": how often the item was turned away, over how long. */
function howOften(how: RateLimitedSending): string {
	const times = how.turnedAway === 1 ? 'once' : `${how.turnedAway} times`;
	const seconds = how.spentMs < 1000 ? 'under 1 s' : `${Math.round(how.spentMs / 1000)} s`;
	return how.turnedAway === 1 ? times : `${times} in ${seconds}`;
}

/**
 * A turn-away the item failed with (429, 503 with Retry-After, connection refused): its title says
 * why the node stopped sending it; a 429's or 503's description leads with the advice that fits:
 * a wait longer than the node waits (run later), the retries spent (raise them, or run later), and
 * under Fixed Batches with several requests at once, smaller batches. No advice names a mode not
 * in use.
 */
export function rateLimitAdvice(failure: Failure, how: RateLimitedSending): Failure {
	if (!failure.resend || failure.pushBack === undefined) return failure;
	const afterMs = failure.pushBack.afterMs;
	const tooLong = afterMs !== undefined && afterMs > MAX_RETRY_WAIT_MS;
	const why = tooLong
		? `asked to wait ${Math.ceil(afterMs / 1000)} s (Retry-After), longer than this node waits`
		: how.retries === 0
			? `not sent again, as ${LABELS.retries} is 0`
			: `${failure.code === 'rate_limited' ? 'turned away' : 'refused'} ${howOften(how)}, retries spent`;
	const message = `${failure.message}: ${why}`;
	if (failure.code !== 'rate_limited') return { ...failure, message };
	let advice: string;
	if (tooLong) {
		advice = `Run this item again after that wait: the service asked to wait ${Math.ceil(afterMs / 1000)} s (Retry-After), longer than the ${MAX_RETRY_WAIT_MS / 1000} s this node waits.`;
	} else {
		advice =
			how.retries === 0
				? `Raise ${inOptions(LABELS.retries)} (now 0) to have the node wait and send a turned-away item again, or run this item again later.`
				: `Raise ${inOptions(LABELS.retries)} (now ${how.retries}; about one per second of a busy spell), or run this item again later, when the service is less busy: it turned this item away ${howOften(how)}.`;
		if (how.sending === 'batches' && how.atOnce > 1) {
			advice += ` ${SENDING_MODES.batches.name} sent up to ${how.atOnce} requests at once: fewer per batch (${inOptions(LABELS.batching, LABELS.batchSize)}) or a longer ${LABELS.batchInterval} keep under the service's limit.`;
		}
	}
	const said = failure.description;
	return { ...failure, message, description: said ? `${advice} ${said}` : advice };
}
