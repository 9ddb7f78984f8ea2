/**
 * One item's way through the node: its parameters → the body bytes, serialized once → attempts,
 * each freshly signed → the output item. Whether and when a failed attempt is sent again is the
 * re-send policy's (sending/resendPolicy.ts); the turns are the pace's.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Failure } from './answer/failure';
import { TriggerError } from './answer/failure';
import { outputJson } from './answer/response';
import { sendAttempt } from './request/attempt';
import { previewItem } from './request/preview';
import { bodyForItem } from './request/requestBody';
import type { Execution } from './request/settings';
import type { Tries } from './sending/resendPolicy';
import { resendDecision } from './sending/resendPolicy';
import type { Pace } from './sending/sending';

/** The item's output, or undefined when Stop came before anything was sent. */
export async function triggerItem(
	execution: Execution,
	itemIndex: number,
	pace: Pace,
): Promise<IDataObject | undefined> {
	const { target, options } = execution;
	const body = bodyForItem(execution.ctx, execution.items[itemIndex], itemIndex);
	if (options.preview) return previewItem(execution, body);
	let tries: Tries = { resent: 0, charged: 0 };
	let acceptedSeen = pace.acceptedCount;
	let afterMs: number | undefined;
	let failure: Failure | undefined;
	let firstTurnedAwayAt: number | undefined;
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
		const decision = resendDecision(
			failure,
			tries,
			options.retries,
			pace.acceptedCount !== acceptedSeen,
		);
		acceptedSeen = pace.acceptedCount;
		tries = decision.tries;
		if (decision.resend) {
			firstTurnedAwayAt ??= Date.now();
			afterMs = decision.afterMs;
			continue;
		}
		if (decision.why === 'never') throw new TriggerError(failure);
		const turnedAwayForMs = Date.now() - (firstTurnedAwayAt ?? Date.now());
		const stopped = { why: decision.why, turnedAway: tries.resent + 1, turnedAwayForMs };
		throw new TriggerError({ ...failure, stopped });
	}
}
