/**
 * One item's way through the node: its parameters → the body bytes, serialized once → attempts,
 * each freshly signed → the output item. Sends again only what provably created no run (a failure
 * with `resend`), as often as Options → Retries When Not Accepted allows, when the pace lets it.
 * The caller has given the item its turn for the first attempt.
 */
import type { IDataObject } from 'n8n-workflow';

import { sendAttempt } from './attempt';
import type { Execution } from './execution';
import type { Failure } from './failure';
import { TriggerError } from './failure';
import { toNodeError } from './nodeError';
import type { Pace } from './pace';
import { previewItem } from './preview';
import { bodyForItem } from './requestBody';
import { outputJson } from './response';

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
	// Nothing is sent for an item the node refuses or for a preview: its turn passes on at once.
	let body: Buffer;
	try {
		body = bodyForItem(ctx, execution.items[itemIndex], itemIndex);
	} catch (error) {
		pace.settled();
		throw toNodeError(ctx, error, itemIndex);
	}
	if (options.preview) {
		pace.settled();
		return previewItem(execution, body);
	}
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
