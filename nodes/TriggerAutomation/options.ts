/**
 * Options → the settings the node runs with, for the whole execution (read at the first item, as
 * the HTTP Request node does). A value that is not a number in range fails the node's items with a
 * message naming the option, rather than silently sending nothing or waiting without end.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { DEFAULTS, LABELS, inOptions } from './description';
import { badInput } from './failure';

/** The longest a timer can wait (Node fires a longer one at once): the bound of the times here. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export interface NodeOptions {
	/** Requests in flight together. */
	batchSize: number;
	batchIntervalMs: number;
	timeoutMs: number;
	includeHeaders: boolean;
	ignoreSsl: boolean;
	retries: number;
	/** Options → Preview Only (Don't Send): each item's signed request as output, nothing sent. */
	preview: boolean;
}

function whole(value: unknown, fallback: number, label: string, min: number, max: number): number {
	const number = value === undefined || value === '' ? fallback : Number(value);
	if (!Number.isInteger(number) || number < min || number > max) {
		throw badInput(
			`${inOptions(label)} must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`,
			`Set ${label} to a number, or remove the option to use its default.`,
		);
	}
	return number;
}

export function readOptions(ctx: IExecuteFunctions, itemCount: number): NodeOptions {
	const options = ctx.getNodeParameter('options', 0, {}) as IDataObject;
	const batch = (options.batching as IDataObject | undefined)?.batch as IDataObject | undefined;
	let batchSize = 1; // Without Batching, one request at a time: runs are created in item order.
	let batchIntervalMs = 0;
	if (batch) {
		batchSize = whole(batch.batchSize, DEFAULTS.batchSize, LABELS.batchSize, -1, MAX_TIMER_MS);
		if (batchSize === 0) {
			throw badInput(
				`${inOptions(LABELS.batchSize)} must be at least 1, or -1 for all items at once, got 0`,
				`Set ${LABELS.batchSize} to 1 or more, or remove the option to use its default.`,
			);
		}
		if (batchSize === -1) batchSize = Math.max(itemCount, 1);
		batchIntervalMs = whole(
			batch.batchInterval,
			DEFAULTS.batchIntervalMs,
			LABELS.batchInterval,
			0,
			MAX_TIMER_MS,
		);
	}
	return {
		batchSize,
		batchIntervalMs,
		timeoutMs: whole(options.timeout, DEFAULTS.timeoutMs, LABELS.timeout, 1, MAX_TIMER_MS),
		includeHeaders: options.fullResponse === true,
		ignoreSsl: options.allowUnauthorizedCerts === true,
		retries: whole(options.retries, 0, LABELS.retries, 0, 10),
		preview: options.previewOnly === true,
	};
}
