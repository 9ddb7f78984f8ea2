/**
 * An item that ends rate limited: unsent while a too-long Retry-After lasts, or turned away until
 * the node gave up, its description then led by the advice that fits how it was sent.
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

/** How an item the service turned away (429, 503 with Retry-After) was sent, until it failed. */
export interface RateLimitedSending {
	sending: 'adaptive' | 'batches';
	/** Requests in flight together under Fixed Batches (1: One at a Time). */
	batchSize: number;
	/** Options → Retries When Not Accepted. */
	retries: number;
	/** This item's requests the service turned away. */
	turnedAway: number;
}

/**
 * A push-back the item failed with (429, or 503 with Retry-After), its description led by the
 * advice that fits what happened: a wait
 * longer than the node waits (run later), the retries spent (raise them, or run later), and under
 * Fixed Batches with several requests at once, smaller batches. No advice names a mode not in use.
 */
export function rateLimitAdvice(failure: Failure, how: RateLimitedSending): Failure {
	if (failure.code !== 'rate_limited' || failure.pushBack === undefined) return failure;
	const afterMs = failure.pushBack?.afterMs;
	let advice: string;
	if (afterMs !== undefined && afterMs > MAX_RETRY_WAIT_MS) {
		advice = `Run this item again after that wait: the service asked to wait ${Math.ceil(afterMs / 1000)} s (Retry-After), longer than the ${MAX_RETRY_WAIT_MS / 1000} s this node waits.`;
	} else {
		const times = how.turnedAway === 1 ? 'once' : `${how.turnedAway} times`;
		advice =
			how.retries === 0
				? `Raise ${inOptions(LABELS.retries)} (now 0) to have the node wait and send a turned-away item again, or run this item again later.`
				: `Raise ${inOptions(LABELS.retries)} (now ${how.retries}), or run this item again later, when the service is less busy: it turned this item away ${times}.`;
		if (how.sending === 'batches' && how.batchSize > 1) {
			advice += ` ${SENDING_MODES.batches.name} sends ${how.batchSize} requests at once: fewer per batch (${inOptions(LABELS.batching, LABELS.batchSize)}) or a longer ${LABELS.batchInterval} keep under the service's limit.`;
		}
	}
	const said = failure.description;
	return { ...failure, description: said ? `${advice} ${said}` : advice };
}
