/**
 * One item's way through the node: parameters → body text → (credential signs) → bytes sent →
 * response item, with batching across items and a per-item answer for every failure.
 */
import type {
	AssignmentCollectionValue,
	IDataObject,
	ICredentialsDecrypted,
	IExecuteFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { SIGNATURE_HEADER, parseSignatureHeader } from '../shared/signature';
import type { WebhookTarget } from '../shared/webhookUrl';
import { parseWebhookUrl } from '../shared/webhookUrl';
import type { ContextMode } from './description';
import { DEFAULTS } from './description';
import type { Failure } from './failures';
import { failureFromError, failureFromResponse, timeoutFailure } from './failures';
import {
	InputError,
	contextFromFields,
	contextFromJson,
	messageText,
	serializeBody,
} from './requestBody';
import type { RawResponse } from './response';
import { outputJson } from './response';

export const CREDENTIAL_TYPE = 'serviceWebhookSecretApi';

interface NodeOptions {
	batchSize: number;
	batchIntervalMs: number;
	timeoutMs: number;
	includeHeaders: boolean;
	ignoreSsl: boolean;
	retries: number;
}

// Timers cannot wait longer (a longer delay would fire at once).
const MAX_TIMER_MS = 2 ** 31 - 1;

function timeoutMs(value: unknown): number {
	const ms = Number(value ?? DEFAULTS.timeoutMs);
	return Number.isFinite(ms) && ms >= 1
		? Math.min(Math.floor(ms), MAX_TIMER_MS)
		: DEFAULTS.timeoutMs;
}

function readOptions(ctx: IExecuteFunctions, itemCount: number): NodeOptions {
	const options = ctx.getNodeParameter('options', 0, {}) as IDataObject;
	const batch = (options.batching as IDataObject | undefined)?.batch as IDataObject | undefined;
	// Without Batching, one request at a time: runs are created in item order.
	let batchSize = batch ? Number(batch.batchSize ?? DEFAULTS.batchSize) : 1;
	if (batchSize === -1 || batchSize > itemCount) batchSize = Math.max(itemCount, 1);
	return {
		batchSize: Math.max(1, Math.floor(batchSize)),
		batchIntervalMs: batch
			? Math.max(0, Number(batch.batchInterval ?? DEFAULTS.batchIntervalMs))
			: 0,
		timeoutMs: timeoutMs(options.timeout),
		includeHeaders: options.fullResponse === true,
		ignoreSsl: options.allowUnauthorizedCerts === true,
		retries: Math.max(0, Math.floor(Number(options.retries ?? 0))),
	};
}

/**
 * A parameter's value for an item. An expression that gives an object containing itself makes n8n
 * overflow the stack while it copies the value; that becomes an error naming the parameter.
 */
function parameter(
	ctx: IExecuteFunctions,
	name: string,
	label: string,
	itemIndex: number,
	fallback?: unknown,
) {
	try {
		return ctx.getNodeParameter(name, itemIndex, fallback);
	} catch (error) {
		if (error instanceof RangeError && /call stack/i.test(error.message)) {
			throw new NodeOperationError(
				ctx.getNode(),
				`${label}: its expression gave an object that contains itself (a circular reference)`,
				{
					description:
						'Pick the values to send, e.g. with Context → Selected Fields, not the whole object.',
					itemIndex,
				},
			);
		}
		// eslint-disable-next-line @n8n/community-nodes/require-node-api-error -- n8n's own error
		throw error;
	}
}

/** Parameters of one item → the exact bytes to sign and send. */
function bodyForItem(ctx: IExecuteFunctions, itemIndex: number): Buffer {
	const message = messageText(parameter(ctx, 'message', 'Message', itemIndex));
	const mode = ctx.getNodeParameter('contextMode', itemIndex, 'none') as ContextMode;
	let context: IDataObject | undefined;
	if (mode === 'allFields') {
		context = ctx.getInputData()[itemIndex].json;
	} else if (mode === 'selectedFields') {
		const fields = parameter(ctx, 'contextFields', 'Context Fields', itemIndex, {});
		context = contextFromFields((fields as AssignmentCollectionValue).assignments);
	} else if (mode === 'json') {
		context = contextFromJson(parameter(ctx, 'contextJson', 'Context (JSON)', itemIndex));
	}
	return Buffer.from(serializeBody(message, context), 'utf8');
}

class ItemFailure extends Error {
	constructor(readonly failure: Failure) {
		super(failure.message);
	}
}

/** The `t` the credential put into the header it added to these options, if it got that far. */
function signatureTimestampOf(request: IHttpRequestOptions): number | undefined {
	const header = request.headers?.[SIGNATURE_HEADER];
	if (typeof header !== 'string') return undefined;
	try {
		return parseSignatureHeader(header).timestamp;
	} catch {
		return undefined;
	}
}

/** Waits `ms`, or less when `signal` fires first (the execution was stopped). */
async function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
	if (signal?.aborted) return;
	await Promise.race([
		sleep(ms),
		new Promise<void>((resolve) =>
			signal?.addEventListener('abort', () => resolve(), { once: true }),
		),
	]);
}

/**
 * The context the request is made on. n8n's request helper aborts the request with the signal of
 * that context (the execution's Stop); here it also fires at the deadline, so Options → Timeout
 * covers the whole answer. The HTTP client's own timeout ends once the headers have arrived, and a
 * body trickled slowly would otherwise keep the item waiting without end.
 */
function withDeadline(ctx: IExecuteFunctions, deadline: AbortSignal): IExecuteFunctions {
	const cancel = ctx.getExecutionCancelSignal();
	const signal = cancel ? AbortSignal.any([cancel, deadline]) : deadline;
	return Object.create(ctx, {
		getExecutionCancelSignal: { value: () => signal },
	}) as IExecuteFunctions;
}

function retryDelayMs(failure: Failure, attempt: number): number | undefined {
	const delay = failure.retryAfterMs ?? 500 * 2 ** attempt;
	return delay <= DEFAULTS.maxRetryWaitMs ? delay : undefined;
}

/** Where the node sends, and the credential it signs with (fetched once per execution). */
interface Target extends WebhookTarget {
	credential: ICredentialsDecrypted;
}

async function triggerItem(
	ctx: IExecuteFunctions,
	itemIndex: number,
	target: Target,
	options: NodeOptions,
): Promise<IDataObject> {
	const body = bodyForItem(ctx, itemIndex);
	const facts = {
		url: target.url,
		automationId: target.automationId,
		bodyBytes: body.length,
		timeoutMs: options.timeoutMs,
	};
	for (let attempt = 0; ; attempt++) {
		// Fresh options per attempt: the credential signs them with a fresh timestamp.
		const request: IHttpRequestOptions = {
			method: 'POST',
			url: target.url,
			body,
			headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/plain, */*' },
			encoding: 'arraybuffer',
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			disableFollowRedirect: true,
			sendCredentialsOnCrossOriginRedirect: false,
			timeout: options.timeoutMs,
			skipSslCertificateValidation: options.ignoreSsl,
		};
		let failure: Failure | undefined;
		let response: RawResponse | undefined;
		const deadline = AbortSignal.timeout(options.timeoutMs);
		try {
			const raw = (await ctx.helpers.httpRequestWithAuthentication.call(
				withDeadline(ctx, deadline),
				CREDENTIAL_TYPE,
				request,
				// Already fetched for the URL: spares n8n fetching it again for every request.
				{ credentialsDecrypted: target.credential },
			)) as RawResponse;
			response = { ...raw, body: Buffer.from(raw.body ?? '') };
		} catch (error) {
			const cancelled = ctx.getExecutionCancelSignal()?.aborted === true;
			failure =
				deadline.aborted && !cancelled ? timeoutFailure(facts) : failureFromError(error, facts);
		}
		const signatureTimestamp = signatureTimestampOf(request);
		if (response) {
			failure = failureFromResponse(response, { ...facts, signatureTimestamp });
			if (!failure && signatureTimestamp !== undefined) {
				return outputJson(
					{ automationId: target.automationId, signatureTimestamp },
					response,
					options.includeHeaders,
				);
			}
		}
		failure ??= {
			kind: 'input',
			retryable: false,
			message: 'The credential did not sign the request',
			description: 'Select a Service Webhook Secret credential for this node.',
		};
		const delay = retryDelayMs(failure, attempt);
		const cancel = ctx.getExecutionCancelSignal();
		if (
			!failure.retryable ||
			attempt >= options.retries ||
			delay === undefined ||
			cancel?.aborted
		) {
			throw new ItemFailure(failure);
		}
		await pause(delay, cancel);
		// Stopped while waiting: the last attempt was not accepted, and nothing more is sent.
		if (cancel?.aborted) throw new ItemFailure(failure);
	}
}

function toNodeError(ctx: IExecuteFunctions, error: unknown, itemIndex: number) {
	if (error instanceof ItemFailure) {
		const { kind, message, description, httpCode } = error.failure;
		if (kind === 'input') {
			return new NodeOperationError(ctx.getNode(), message, { description, itemIndex });
		}
		// Built from our own plain values only: no request options, headers or client error inside.
		const apiError = new NodeApiError(
			ctx.getNode(),
			{ message, httpCode: httpCode ?? null } as JsonObject,
			{
				message,
				description,
				httpCode,
				itemIndex,
			},
		);
		// NodeApiError swaps a message that mentions a network error code (ECONNRESET, ENOTFOUND …)
		// for a generic one, some advising an immediate retry; ours says what happened to the run.
		apiError.message = message;
		return apiError;
	}
	if (error instanceof NodeOperationError) {
		error.context.itemIndex ??= itemIndex;
		return error;
	}
	if (error instanceof InputError) {
		return new NodeOperationError(ctx.getNode(), error.message, {
			description: error.description,
			itemIndex,
		});
	}
	// Expression errors and the like come from n8n itself and already say what is wrong.
	const message = error instanceof Error ? error.message : String(error);
	return new NodeOperationError(ctx.getNode(), message, { itemIndex });
}

/**
 * The Continue On Fail item, shaped as n8n's engine recognises an error item (only the keys `error`
 * and `details`, so it is routed to the error output). No `error` property on the item: the engine
 * would replace the JSON with the message alone, losing how to fix it and the status code.
 */
function errorItem(
	error: NodeApiError | NodeOperationError,
	itemIndex: number,
): INodeExecutionData {
	const details: IDataObject = { itemIndex };
	if (error.description) details.description = error.description;
	if (error instanceof NodeApiError && error.httpCode) details.httpCode = error.httpCode;
	return { json: { error: error.message, details }, pairedItem: { item: itemIndex } };
}

export async function triggerAutomations(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const options = readOptions(this, items.length);
	const results: INodeExecutionData[] = [];

	let target: Target | undefined;
	let targetError: unknown;
	try {
		const data = await this.getCredentials(CREDENTIAL_TYPE);
		const { id, name } = this.getNode().credentials?.[CREDENTIAL_TYPE] ?? { id: null, name: '' };
		target = {
			...parseWebhookUrl(data.webhookUrl),
			credential: { id: id ?? '', name, type: CREDENTIAL_TYPE, data },
		};
	} catch (error) {
		targetError = error instanceof Error ? new InputError(error.message) : error;
	}

	const cancel = this.getExecutionCancelSignal();
	for (let start = 0; start < items.length; start += options.batchSize) {
		if (start > 0 && options.batchIntervalMs > 0) await pause(options.batchIntervalMs, cancel);
		// Stopped: no further batch is sent; the engine reports the cancellation.
		if (cancel?.aborted) break;
		const indexes = Array.from(
			{ length: Math.min(options.batchSize, items.length - start) },
			(_, offset) => start + offset,
		);
		const settled = await Promise.all(
			indexes.map(async (itemIndex) => {
				try {
					if (!target) throw targetError;
					return { itemIndex, json: await triggerItem(this, itemIndex, target, options) };
				} catch (error) {
					return { itemIndex, error: toNodeError(this, error, itemIndex) };
				}
			}),
		);
		// Stopped during this batch: its requests were aborted (each may or may not have created a
		// run), and their errors would make the engine report a failure instead of the cancellation.
		if (cancel?.aborted) break;
		for (const outcome of settled) {
			if (outcome.error) {
				if (!this.continueOnFail()) throw outcome.error;
				results.push(errorItem(outcome.error, outcome.itemIndex));
			} else {
				results.push({ json: outcome.json, pairedItem: { item: outcome.itemIndex } });
			}
		}
	}
	return [results];
}
