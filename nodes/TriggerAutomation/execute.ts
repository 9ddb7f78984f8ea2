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
} from 'n8n-workflow';
import { NodeOperationError, UnexpectedError, sleep } from 'n8n-workflow';

import { SIGNATURE_HEADER, describeSecretProblem } from '../../credentials/common/signature';
import type { WebhookTarget } from '../../credentials/common/webhookUrl';
import { parseWebhookUrl } from '../../credentials/common/webhookUrl';
import type { ContextMode } from './description';
import type { Failure } from './failures';
import {
	InputError,
	ItemFailure,
	errorItem,
	failureFromError,
	failureFromResponse,
	timeoutFailure,
	toNodeError,
} from './failures';
import { contextFromFields, contextFromJson, messageText, serializeBody } from './requestBody';
import { acceptedItems } from './acceptedItems';
import type { NodeOptions } from './options';
import { readOptions } from './options';
import type { RawResponse } from './response';
import { outputJson } from './response';

export const CREDENTIAL_TYPE = 'serviceWebhookSecretApi';

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
		// n8n's own error (an expression error …): already says what is wrong; as a node error of this item.
		throw toNodeError(ctx, error, itemIndex);
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

// The credential writes `t=<ms>,v1=<hex>`; only its t is wanted here.
const SIGNED_AT = /^t=(\d+),/;

/** The `t` the credential put into the header it added to these options, if it got that far. */
function signatureTimestampOf(request: IHttpRequestOptions): number | undefined {
	const header = request.headers?.[SIGNATURE_HEADER];
	const match = typeof header === 'string' ? SIGNED_AT.exec(header) : null;
	return match ? Number(match[1]) : undefined;
}

/** Waits `ms`, or less when `signal` fires first (the execution was stopped). */
async function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
	// n8n's sleep rejects when the signal fires; a stop is handled by the caller.
	await sleep(ms, signal).catch(() => undefined);
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

interface Deadline {
	startedAt: number;
	timeoutMs: number;
	signal: AbortSignal;
	ctx: IExecuteFunctions;
	requests: number;
}

const deadlines = new WeakMap<IExecuteFunctions, Deadline>();
// Each request adds an abort listener to the signal, and Node warns about a leak above 10.
const REQUESTS_PER_DEADLINE = 8;

/**
 * The deadline of a request starting now. Requests that start in the same millisecond on the same
 * context (a batch) share one, up to 8: timers have millisecond resolution, so each request still
 * gets its whole Timeout, and a batch of 64 sets 8 timers instead of 64 (a timer signal and its
 * combination with Stop cost about 25 µs each time).
 */
function deadlineFor(ctx: IExecuteFunctions, timeoutMs: number): Deadline {
	const now = Date.now();
	const shared = deadlines.get(ctx);
	if (
		shared?.startedAt === now &&
		shared.timeoutMs === timeoutMs &&
		shared.requests < REQUESTS_PER_DEADLINE
	) {
		shared.requests++;
		return shared;
	}
	const signal = AbortSignal.timeout(timeoutMs);
	const deadline = {
		startedAt: now,
		timeoutMs,
		signal,
		ctx: withDeadline(ctx, signal),
		requests: 1,
	};
	deadlines.set(ctx, deadline);
	return deadline;
}

// A longer Retry-After is not waited for: the item fails with the 429 and says when to retry.
const MAX_RETRY_WAIT_MS = 60_000;

function retryDelayMs(failure: Failure, attempt: number): number | undefined {
	const delay = failure.retryAfterMs ?? 500 * 2 ** attempt;
	return delay <= MAX_RETRY_WAIT_MS ? delay : undefined;
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
		const deadline = deadlineFor(ctx, options.timeoutMs);
		try {
			const raw = (await ctx.helpers.httpRequestWithAuthentication.call(
				deadline.ctx,
				CREDENTIAL_TYPE,
				request,
				// Already fetched for the URL: spares n8n fetching it again for every request.
				{ credentialsDecrypted: target.credential },
			)) as RawResponse;
			response = {
				...raw,
				body: Buffer.isBuffer(raw.body) ? raw.body : Buffer.from(raw.body ?? ''),
			};
		} catch (error) {
			const cancelled = ctx.getExecutionCancelSignal()?.aborted === true;
			failure =
				deadline.signal.aborted && !cancelled
					? timeoutFailure(facts)
					: failureFromError(error, facts);
		}
		const signatureTimestamp = signatureTimestampOf(request);
		if (response) {
			failure = failureFromResponse(response, { ...facts, signatureTimestamp });
			if (!failure) {
				return outputJson(
					{ automationId: target.automationId, signatureTimestamp },
					response,
					options.includeHeaders,
				);
			}
		}
		if (!failure) throw new UnexpectedError('Neither an answer nor an error from the request');
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

	let options: NodeOptions;
	let target: Target;
	try {
		options = readOptions(this, items.length);
		target = await readTarget(this);
	} catch (error) {
		// A problem of the node's settings: every item gets it, nothing is sent.
		items.forEach((_, itemIndex) => fail(error, itemIndex));
		return [results];
	}

	const accepted = acceptedItems(this);
	// Until the node returns normally, n8n treats the try as failed (it threw).
	let retryFollows = true;
	const cancel = this.getExecutionCancelSignal();
	try {
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
						const json =
							accepted?.earlier(itemIndex) ?? (await triggerItem(this, itemIndex, target, options));
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
		accepted?.finish(retryFollows);
	}
	return [results];
}
