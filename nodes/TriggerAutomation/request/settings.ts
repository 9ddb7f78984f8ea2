/**
 * What every item of one execution shares, read once: Options, at the first item (the HTTP
 * Request node reads its options per item; here they set one pace for the whole execution), and
 * the credential's target. A value that is not a number in range fails the node's items with a
 * message naming the option, rather than silently sending nothing or waiting without end.
 */
import type {
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
} from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../../../credentials/common/credentialType';
import { describeSecretProblem } from '../../../credentials/common/signature';
import type { WebhookTarget } from '../../../credentials/common/webhookUrl';
import { parseWebhookUrl } from '../../../credentials/common/webhookUrl';
import { badInput } from '../answer/failure';
import type { SendingMode } from '../description';
import { DEFAULTS, LABELS, SENDING_MODES, inOptions } from '../description';
import { MAX_RETRIES } from '../limits';

/** The longest a timer can wait: a longer delay would fire at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

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

/**
 * Options → Sending, with Batching as the HTTP Request node users know it: Batching added means
 * Fixed Batches. The editor shows Sending at Adaptive as soon as it is added (to read its help,
 * say), and cannot tell that from a choice, so Adaptive beside Batching is Fixed Batches too; only
 * One at a Time, which is never a default, contradicts Batching.
 */
function sendingMode(options: IDataObject, batch: IDataObject | undefined): SendingMode {
	const mode = options.sending ?? DEFAULTS.sending;
	if (typeof mode !== 'string' || !(mode in SENDING_MODES)) {
		throw badInput(
			`${inOptions(LABELS.sending)} must be one of ${Object.values(SENDING_MODES)
				.map((m) => m.name)
				.join(', ')}, got ${JSON.stringify(mode)}`,
		);
	}
	if (!batch) return mode as SendingMode;
	if (mode === 'oneAtATime') {
		throw badInput(
			`${inOptions(LABELS.batching)} sends ${SENDING_MODES.batches.name}, but ${LABELS.sending} is ${SENDING_MODES.oneAtATime.name}`,
			`Remove ${LABELS.batching} to send one at a time, or remove ${inOptions(LABELS.sending)} to send the batches.`,
		);
	}
	return 'batches';
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
		retries: whole(options.retries, DEFAULTS.retries, LABELS.retries, 0, MAX_RETRIES),
		preview: options.previewOnly === true,
	};
}

/** Where the node sends, and the credential it signs with (fetched once per execution). */
export interface Target extends WebhookTarget {
	credential: ICredentialsDecrypted;
}

/** One execution of the node: n8n's context, the input items, the target and the options. */
export interface Execution {
	ctx: IExecuteFunctions;
	items: INodeExecutionData[];
	target: Target;
	options: NodeOptions;
}

/** The credential's target, fetched and checked once per execution. */
export async function readTarget(ctx: IExecuteFunctions): Promise<Target> {
	const data = await ctx.getCredentials(CREDENTIAL_TYPE);
	const { id, name } = ctx.getNode().credentials?.[CREDENTIAL_TYPE] ?? { id: null, name: '' };
	let target: WebhookTarget;
	try {
		target = parseWebhookUrl(data.webhookUrl);
	} catch (error) {
		throw badInput((error as Error).message);
	}
	// The credential refuses such a secret too, but n8n 1.x wraps what `authenticate` throws in an
	// error without its cause, and the refusal would read as a network failure there.
	const secretProblem = describeSecretProblem(data.signingSecret);
	if (secretProblem) throw badInput(secretProblem);
	return { ...target, credential: { id: id ?? '', name, type: CREDENTIAL_TYPE, data } };
}
