/**
 * One item's way through the node: its parameters → the body bytes, serialized once → attempts,
 * each freshly signed → the output item. Sends again only what provably created no run (a failure
 * with `resend`), at the turns the pace gives, until Options → Retries When Not Accepted is spent.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Failure } from './answer/failure';
import { MAX_RETRY_WAIT_MS, TriggerError } from './answer/failure';
import { outputJson } from './answer/response';
import { sendAttempt } from './request/attempt';
import { previewItem } from './request/preview';
import { bodyForItem } from './request/requestBody';
import type { Execution } from './request/settings';
import type { Pace } from './sending/sending';

/** What an item's attempts so far tell the re-send decision. */
export interface Tries {
	/** Re-sends so far. */
	resent: number;
	/** Turn-aways that counted against Retries When Not Accepted. */
	spent: number;
}

/**
 * The re-send decision: how long after this failure the item is sent again, or undefined: it fails
 * with it. Only what provably created no run is re-sent, after the service's Retry-After or a
 * backoff doubling from 0.5 s; doubling stops at 32 s, under MAX_RETRY_WAIT_MS, so that only the
 * service's own Retry-After is too long to wait for.
 */
export function resendAfterMs(failure: Failure, tries: Tries, retries: number): number | undefined {
	if (!failure.resend || retries === 0 || tries.spent > retries) return undefined;
	const delay = failure.pushBack?.afterMs ?? 500 * 2 ** Math.min(tries.resent, 6);
	return delay <= MAX_RETRY_WAIT_MS ? delay : undefined;
}

/** The item's output, or undefined when Stop came before anything was sent. */
export async function triggerItem(
	execution: Execution,
	itemIndex: number,
	pace: Pace,
): Promise<IDataObject | undefined> {
	const { target, options } = execution;
	const body = bodyForItem(execution.ctx, execution.items[itemIndex], itemIndex);
	if (options.preview) return previewItem(execution, body);
	// A turn-away costs a retry only when the service accepted none of the pace's other requests
	// since this item's last answer: losing a race for its limit is not its refusal.
	const tries: Tries = { resent: 0, spent: 0 };
	let acceptedSeen = pace.accepted;
	let afterMs: number | undefined;
	let failure: Failure | undefined;
	for (;;) {
		const sent = await pace.attempt(async () => await sendAttempt(execution, body), afterMs);
		// Stopped while it waited: the last attempt, if any, was not accepted; nothing more is sent.
		if (sent === undefined) {
			if (failure) throw new TriggerError(failure);
			return undefined;
		}
		if ('accepted' in sent) {
			return outputJson(
				{ automationId: target.automationId, signatureTimestamp: sent.signedAt },
				sent.accepted,
				options.includeHeaders,
			);
		}
		failure = sent.failure;
		if (pace.accepted === acceptedSeen) tries.spent++;
		acceptedSeen = pace.accepted;
		afterMs = resendAfterMs(failure, tries, options.retries);
		if (afterMs === undefined) throw new TriggerError(failure);
		tries.resent++;
	}
}
