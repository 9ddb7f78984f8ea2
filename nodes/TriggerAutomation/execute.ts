/**
 * The node's execution: the settings read once (request/settings.ts), then the items as Options →
 * Sending says (sending/), each through triggerItem.ts, and every failure made into n8n's error
 * here, once, as a per-item answer in item order.
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { PassEnd } from './acceptedItems';
import { acceptedItems } from './acceptedItems';
import { TriggerError, mayHaveRun } from './answer/failure';
import {
	errorItem,
	failuresHint,
	previewHint,
	retryHint,
	toNodeError,
	stoppingError,
	waitHint,
} from './answer/nodeError';
import { rateLimitAdvice } from './answer/rateLimited';
import type { Execution } from './request/settings';
import { readOptions, readTarget } from './request/settings';
import type { SendItem, Sending } from './sending/sending';
import { sendAdaptively, sendInBatches } from './sending/sending';
import { WaitTally } from './sending/waitTally';
import { triggerItem } from './triggerItem';

export async function triggerAutomations(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const results: INodeExecutionData[] = [];
	const failed = { items: 0, mayHaveRun: 0 };
	const tally = new WaitTally();
	let retryOf: readonly string[] = [];
	// n8n's Retry, even of an execution that never ran this node (then retryOf is empty).
	let isRetry = false;
	const answer = (preview: boolean) => {
		if (preview) this.addExecutionHints(previewHint());
		const waited = waitHint(tally, failed.items, items.length);
		if (waited) this.addExecutionHints(waited);
		if (isRetry) this.addExecutionHints(retryHint(retryOf));
		if (failed.items > 0) {
			this.addExecutionHints(failuresHint(failed.items, failed.mayHaveRun, items.length));
		}
		return [results];
	};
	/**
	 * `accepted`: items of this pass the service accepted; with the executions this one retries,
	 * said when the node stops at this one.
	 */
	const fail = (
		error: unknown,
		itemIndex: number,
		accepted = 0,
		retryOf: readonly string[] = [],
	) => {
		const nodeError = toNodeError(this, error, itemIndex);
		if (!this.continueOnFail()) {
			throw stoppingError(nodeError, error, {
				itemIndex,
				total: items.length,
				accepted,
				retryOf,
				isRetry,
			});
		}
		results.push(errorItem(nodeError, itemIndex));
		failed.items++;
		if (error instanceof TriggerError && mayHaveRun(error.failure)) failed.mayHaveRun++;
	};

	let execution: Execution;
	try {
		const options = readOptions(this, items.length);
		const target = await readTarget(this);
		execution = { ctx: this, items, target, options };
	} catch (error) {
		// A problem of the node's settings: every item gets it, nothing is sent.
		items.forEach((_, itemIndex) => fail(error, itemIndex));
		return answer(false);
	}

	// A preview sends nothing: it neither passes on nor records what the service accepted.
	const accepted = execution.options.preview
		? undefined
		: acceptedItems(this, execution.target.url);
	retryOf = accepted?.retryOf ?? [];
	isRetry = accepted !== undefined && (this.getMode() === 'retry' || retryOf.length > 0);
	const { sending, batchSize, batchIntervalMs, retries } = execution.options;
	const send: SendItem = async (itemIndex, pace) => {
		try {
			// Accepted by an earlier try of this pass (Retry On Fail, n8n's Retry): passed on, not sent.
			const json = accepted?.earlier(itemIndex) ?? (await triggerItem(execution, itemIndex, pace));
			if (json === undefined) return undefined;
			accepted?.accepted(itemIndex, json);
			return { itemIndex, json };
		} catch (error) {
			if (!(error instanceof TriggerError)) return { itemIndex, error };
			const how = { sending, atOnce: tally.mostInFlight, retries };
			return { itemIndex, error: new TriggerError(rateLimitAdvice(error.failure, how)) };
		}
	};
	const cancel = this.getExecutionCancelSignal();
	const continueOnFail = this.continueOnFail();
	const plan: Sending = {
		service: execution.target.serviceUrl,
		count: items.length,
		stop: cancel,
		send,
		halt: (outcome) => 'error' in outcome && !continueOnFail,
		tally,
	};
	// Until the node returns normally, n8n treats the try as failed (it threw).
	let end: PassEnd = 'threw';
	try {
		const outcomes =
			sending === 'adaptive'
				? await sendAdaptively(plan)
				: await sendInBatches(plan, batchSize, batchIntervalMs);
		// Stopped: the requests in flight were aborted (each may or may not have created a run), and
		// their errors would make the engine report a failure instead of the cancellation.
		if (cancel?.aborted) {
			end = 'stopped';
			return [results];
		}
		const acceptedCount = accepted ? outcomes.filter((outcome) => 'json' in outcome).length : 0;
		for (const outcome of outcomes) {
			if ('json' in outcome) {
				results.push({ json: outcome.json, pairedItem: { item: outcome.itemIndex } });
			} else {
				fail(outcome.error, outcome.itemIndex, acceptedCount, retryOf);
			}
		}
		end = results[0]?.json.error !== undefined ? 'error items' : 'passed';
	} finally {
		accepted?.finish(end);
	}
	return answer(execution.options.preview);
}
