/**
 * The node's execution: the settings read once (options, the credential's target), then the items
 * in batches, each item through triggerItem.ts, and every failure as a per-item answer.
 */
import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../../credentials/common/credentialType';
import { describeSecretProblem } from '../../credentials/common/signature';
import type { WebhookTarget } from '../../credentials/common/webhookUrl';
import { parseWebhookUrl } from '../../credentials/common/webhookUrl';
import { acceptedItems } from './acceptedItems';
import { Deadlines } from './deadline';
import type { Execution, Target } from './execution';
import { InputError } from './inputError';
import { ItemParameters } from './itemParameters';
import { errorItem, toNodeError } from './nodeErrors';
import { readOptions } from './options';
import { pause, triggerItem } from './triggerItem';

/** The credential's target, fetched and checked once per execution. */
async function readTarget(ctx: IExecuteFunctions): Promise<Target> {
	const data = await ctx.getCredentials(CREDENTIAL_TYPE);
	const { id, name } = ctx.getNode().credentials?.[CREDENTIAL_TYPE] ?? { id: null, name: '' };
	let target: WebhookTarget | undefined;
	let urlProblem = '';
	try {
		target = parseWebhookUrl(data.webhookUrl);
	} catch (error) {
		urlProblem = (error as Error).message;
	}
	// Becomes one NodeOperationError per item, with its index (toNodeError).
	if (!target) throw new InputError(urlProblem);
	// The credential refuses such a secret too, but n8n 1.x wraps what `authenticate` throws in an
	// error without its cause, and the refusal would read as a network failure there.
	const secretProblem = describeSecretProblem(data.signingSecret);
	if (secretProblem) throw new InputError(secretProblem);
	return { ...target, credential: { id: id ?? '', name, type: CREDENTIAL_TYPE, data } };
}

export async function triggerAutomations(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const results: INodeExecutionData[] = [];
	const fail = (error: unknown, itemIndex: number) => {
		const nodeError = toNodeError(this, error, itemIndex);
		if (!this.continueOnFail()) throw nodeError;
		results.push(errorItem(nodeError, itemIndex));
	};

	let settings: Omit<Execution, 'deadlines'>;
	try {
		const options = readOptions(this, items.length);
		const target = await readTarget(this);
		settings = { ctx: this, items, parameters: new ItemParameters(this), target, options };
	} catch (error) {
		// A problem of the node's settings: every item gets it, nothing is sent.
		items.forEach((_, itemIndex) => fail(error, itemIndex));
		return [results];
	}

	const accepted = acceptedItems(this);
	// Disposed in the `finally` below: nothing that can throw comes in between.
	const execution: Execution = { ...settings, deadlines: new Deadlines(this) };
	// Until the node returns normally, n8n treats the try as failed (it threw).
	let retryFollows = true;
	const cancel = this.getExecutionCancelSignal();
	const { batchSize, batchIntervalMs } = execution.options;
	try {
		for (let start = 0; start < items.length; start += batchSize) {
			if (start > 0 && batchIntervalMs > 0) await pause(batchIntervalMs, cancel);
			// Stopped: no further batch is sent; the engine reports the cancellation.
			if (cancel?.aborted) break;
			const indexes = Array.from(
				{ length: Math.min(batchSize, items.length - start) },
				(_, offset) => start + offset,
			);
			const settled = await Promise.all(
				indexes.map(async (itemIndex) => {
					try {
						const json = accepted?.earlier(itemIndex) ?? (await triggerItem(execution, itemIndex));
						accepted?.accepted(itemIndex, json);
						return { itemIndex, json };
					} catch (error) {
						return { itemIndex, error };
					}
				}),
			);
			// Stopped during this batch: its requests were aborted (each may or may not have created a
			// run), and their errors would make the engine report a failure instead of the cancellation.
			if (cancel?.aborted) break;
			for (const outcome of settled) {
				if (outcome.json) {
					results.push({ json: outcome.json, pairedItem: { item: outcome.itemIndex } });
				} else {
					fail(outcome.error, outcome.itemIndex);
				}
			}
		}
		retryFollows = results[0]?.json.error !== undefined;
	} finally {
		execution.deadlines.dispose();
		accepted?.finish(retryFollows);
	}
	return [results];
}
