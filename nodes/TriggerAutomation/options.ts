/**
 * Options → the settings the node runs with, for the whole execution (read at the first item, as
 * the HTTP Request node does). A value that is not a number in range fails the node's items with a
 * message naming the option, rather than silently sending nothing or waiting without end.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { MAX_TIMER_MS } from './deadline';
import type { SendingMode } from './description';
import { DEFAULTS, LABELS, SENDING_MODES, inOptions } from './description';
import { badInput } from './failure';

export interface NodeOptions {
	/** One at a Time is sent as batches of one. */
	sending: 'adaptive' | 'batches';
	/** For batches: requests in flight together, and the pause between batches. */
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

/** Options → Sending; Batching added alone means Fixed Batches, as it does in the HTTP Request node. */
function sendingMode(options: IDataObject, batch: IDataObject | undefined): SendingMode {
	const mode = options.sending ?? (batch ? 'batches' : DEFAULTS.sending);
	if (typeof mode !== 'string' || !(mode in SENDING_MODES)) {
		throw badInput(
			`${inOptions(LABELS.sending)} must be one of ${Object.values(SENDING_MODES)
				.map((m) => m.name)
				.join(', ')}, got ${JSON.stringify(mode)}`,
		);
	}
	if (batch && mode !== 'batches') {
		throw badInput(
			`${inOptions(LABELS.batching)} applies only when ${LABELS.sending} is ${SENDING_MODES.batches.name}, but it is ${SENDING_MODES[mode as SendingMode].name}`,
			`Set ${inOptions(LABELS.sending)} to ${SENDING_MODES.batches.name}, or remove ${LABELS.batching}.`,
		);
	}
	return mode as SendingMode;
}

export function readOptions(ctx: IExecuteFunctions, itemCount: number): NodeOptions {
	const options = ctx.getNodeParameter('options', 0, {}) as IDataObject;
	const batch = (options.batching as IDataObject | undefined)?.batch as IDataObject | undefined;
	const mode = sendingMode(options, batch);
	let batchSize = 1; // One at a Time: runs are created in item order.
	let batchIntervalMs = 0;
	if (mode === 'batches') {
		batchSize = whole(batch?.batchSize, DEFAULTS.batchSize, LABELS.batchSize, -1, MAX_TIMER_MS);
		if (batchSize === 0) {
			throw badInput(
				`${inOptions(LABELS.batchSize)} must be at least 1, or -1 for all items at once, got 0`,
				`Set ${LABELS.batchSize} to 1 or more, or remove the option to use its default.`,
			);
		}
		if (batchSize === -1) batchSize = Math.max(itemCount, 1);
		batchIntervalMs = whole(
			batch?.batchInterval,
			DEFAULTS.batchIntervalMs,
			LABELS.batchInterval,
			0,
			MAX_TIMER_MS,
		);
	}
	return {
		sending: mode === 'adaptive' ? 'adaptive' : 'batches',
		batchSize,
		batchIntervalMs,
		timeoutMs: whole(options.timeout, DEFAULTS.timeoutMs, LABELS.timeout, 1, MAX_TIMER_MS),
		includeHeaders: options.fullResponse === true,
		ignoreSsl: options.allowUnauthorizedCerts === true,
		retries: whole(options.retries, DEFAULTS.retries, LABELS.retries, 0, 10),
		preview: options.previewOnly === true,
	};
}
