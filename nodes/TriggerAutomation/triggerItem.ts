/**
 * One item's way through the node: its parameters → the body bytes, serialized once → attempts,
 * each freshly signed → the output item. Sends again only what provably created no run (a failure
 * with `resend`), when the pace lets it, until Options → Retries When Not Accepted is spent. The
 * caller has given the item its turn for the first attempt.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Failure } from './answer/failure';
import { MAX_RETRY_WAIT_MS, TriggerError } from './answer/failure';
import { outputJson } from './answer/response';
import { askedToWait } from './answer/serviceAnswer';
import { sendAttempt } from './request/attempt';
import { previewItem } from './request/preview';
import { bodyForItem } from './request/requestBody';
import type { Execution } from './request/settings';
import type { Pace } from './sending/sending';

/** How long to wait before re-sending after `resent` re-sends; undefined: not waited for. */
export function resendDelayMs(failure: Failure, resent: number): number | undefined {
	// Doubling stops at 32 s, under MAX_RETRY_WAIT_MS: only the service's own Retry-After fails here.
	const delay = failure.pushBack?.afterMs ?? 500 * 2 ** Math.min(resent, 6);
	return delay <= MAX_RETRY_WAIT_MS ? delay : undefined;
}

export async function triggerItem(
	execution: Execution,
	itemIndex: number,
	pace: Pace,
): Promise<IDataObject> {
	const { ctx, target, options } = execution;
	let body: Buffer | undefined;
	try {
		body = bodyForItem(ctx, execution.items[itemIndex], itemIndex);
	} finally {
		// Nothing is sent for an item the node refuses or for a preview: its turn passes on at once.
		if (body === undefined || options.preview) pace.settled();
	}
	if (options.preview) return previewItem(execution, body);
	const stop = ctx.getExecutionCancelSignal();
	// A turn-away costs a retry only when the service accepted none of the pace's other requests
	// since this item's last answer: losing a race for its limit is not its refusal.
	let spent = 0;
	let acceptedSeen = pace.accepted;
	for (let resent = 0; ; resent++) {
		const refusedForMs = pace.refusedForMs ?? 0;
		if (refusedForMs > 0) {
			pace.settled();
			throw new TriggerError(askedToWait(refusedForMs));
		}
		const sentAt = Date.now();
		const attempt = await sendAttempt(execution, body);
		pace.settled(sentAt, 'failure' in attempt ? attempt.failure : undefined);
		if ('accepted' in attempt) {
			return outputJson(
				{ automationId: target.automationId, signatureTimestamp: attempt.signedAt },
				attempt.accepted,
				options.includeHeaders,
			);
		}
		const { failure } = attempt;
		if (pace.accepted === acceptedSeen) spent++;
		acceptedSeen = pace.accepted;
		const delay = resendDelayMs(failure, resent);
		const spentAll = options.retries === 0 || spent > options.retries;
		if (!failure.resend || spentAll || delay === undefined || stop?.aborted) {
			throw new TriggerError(failure);
		}
		await pace.turn(delay);
		// Stopped while waiting: the last attempt was not accepted, and nothing more is sent.
		if (stop?.aborted) throw new TriggerError(failure);
	}
}
