/**
 * One item's way through the node: its parameters → the body bytes, serialized once → attempts,
 * each freshly signed → the output item. Sends again only what provably created no run (a failure
 * with `resend`), as often as Options → Retries When Not Accepted allows.
 */
import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { sendAttempt } from './attempt';
import type { Execution } from './execution';
import type { Failure } from './failure';
import { TriggerError } from './failure';
import { previewItem } from './preview';
import { bodyForItem } from './requestBody';
import { outputJson } from './response';

/** Waits `ms`, or less when `signal` fires first (the execution was stopped). */
export async function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
	// n8n's sleep rejects when the signal fires; a stop is handled by the caller.
	await sleep(ms, signal).catch(() => undefined);
}

// A longer Retry-After is not waited for: the item fails with the 429 and says when to retry.
const MAX_RETRY_WAIT_MS = 60_000;

function retryDelayMs(failure: Failure, retry: number): number | undefined {
	const delay = failure.resend?.afterMs ?? 500 * 2 ** retry;
	return delay <= MAX_RETRY_WAIT_MS ? delay : undefined;
}

export async function triggerItem(execution: Execution, itemIndex: number): Promise<IDataObject> {
	const { ctx, target, options } = execution;
	const body = bodyForItem(ctx, execution.items[itemIndex], itemIndex);
	if (options.preview) return previewItem(execution, body);
	for (let retry = 0; ; retry++) {
		const attempt = await sendAttempt(execution, body);
		if ('accepted' in attempt) {
			return outputJson(
				{ automationId: target.automationId, signatureTimestamp: attempt.signedAt },
				attempt.accepted,
				options.includeHeaders,
			);
		}
		const { failure } = attempt;
		const delay = retryDelayMs(failure, retry);
		const cancel = ctx.getExecutionCancelSignal();
		if (!failure.resend || retry >= options.retries || delay === undefined || cancel?.aborted) {
			throw new TriggerError(failure);
		}
		await pause(delay, cancel);
		// Stopped while waiting: the last attempt was not accepted, and nothing more is sent.
		if (cancel?.aborted) throw new TriggerError(failure);
	}
}
