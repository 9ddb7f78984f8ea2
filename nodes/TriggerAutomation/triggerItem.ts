/**
 * One item's way through the node: its parameters → the body bytes, serialized once → attempts,
 * each freshly signed → the output item. Sends again only what provably created no run (a failure
 * with `resend`), as often as Options → Retries When Not Accepted allows, when the pace lets it.
 * The caller has given the item its turn for the first attempt.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Failure } from './answer/failure';
import { TriggerError } from './answer/failure';
import { outputJson } from './answer/response';
import { sendAttempt } from './request/attempt';
import { previewItem } from './request/preview';
import { bodyForItem } from './request/requestBody';
import type { Execution } from './request/settings';
import type { Pace } from './sending/pace';

// A longer Retry-After is not waited for: the item fails with the 429 and says when to retry.
const MAX_RETRY_WAIT_MS = 60_000;

function resendDelayMs(failure: Failure, retry: number): number | undefined {
	const delay = failure.pushBack?.afterMs ?? 500 * 2 ** retry;
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
	for (let retry = 0; ; retry++) {
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
		const delay = resendDelayMs(failure, retry);
		if (!failure.resend || retry >= options.retries || delay === undefined || stop?.aborted) {
			throw new TriggerError(failure);
		}
		await pace.turn(delay, retry + 1);
		// Stopped while waiting: the last attempt was not accepted, and nothing more is sent.
		if (stop?.aborted) throw new TriggerError(failure);
	}
}
