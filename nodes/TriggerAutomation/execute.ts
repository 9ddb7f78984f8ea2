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
import { UnexpectedError, sleep } from 'n8n-workflow';

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
import { Deadlines } from './deadline';
import { ItemParameters } from './itemParameters';
import type { NodeOptions } from './options';
import { readOptions } from './options';
import type { RawResponse } from './response';
import { outputJson } from './response';

export const CREDENTIAL_TYPE = 'serviceWebhookSecretApi';

/** Parameters of one item → the exact bytes to sign and send. */
function bodyForItem(run: Run, itemIndex: number): Buffer {
	const { parameters } = run;
	const message = messageText(parameters.get('message', 'Message', itemIndex));
	const mode = parameters.get('contextMode', 'Context', itemIndex, 'none') as ContextMode;
	let context: IDataObject | undefined;
	if (mode === 'allFields') {
		context = run.items[itemIndex].json;
	} else if (mode === 'selectedFields') {
		const fields = parameters.get('contextFields', 'Context Fields', itemIndex, {});
		context = contextFromFields((fields as AssignmentCollectionValue).assignments);
	} else if (mode === 'json') {
		context = contextFromJson(parameters.get('contextJson', 'Context (JSON)', itemIndex));
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

/** What every item of one run of the node shares. */
interface Run {
	ctx: IExecuteFunctions;
	items: INodeExecutionData[];
	parameters: ItemParameters;
	target: Target;
	options: NodeOptions;
	deadlines: Deadlines;
}

async function triggerItem(run: Run, itemIndex: number): Promise<IDataObject> {
	const { ctx, target, options } = run;
	const body = bodyForItem(run, itemIndex);
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
			// No `timeout`: the deadline below covers connecting, headers and body alike, where the
			// HTTP client's would add two more timers per request and stop only idle waits.
			skipSslCertificateValidation: options.ignoreSsl,
		};
		let failure: Failure | undefined;
		let response: RawResponse | undefined;
		const deadline = run.deadlines.for(options.timeoutMs);
		try {
			const raw = (await ctx.helpers.httpRequestWithAuthentication.call(
				deadline.ctx,
				CREDENTIAL_TYPE,
				request,
				// Already fetched for the URL: spares n8n fetching it again for every request.
				{ credentialsDecrypted: target.credential },
			)) as RawResponse;
			response = {
				statusCode: raw.statusCode,
				statusMessage: raw.statusMessage,
				headers: raw.headers,
				body: Buffer.isBuffer(raw.body) ? raw.body : Buffer.from(raw.body ?? ''),
			};
		} catch (error) {
			const cancelled = ctx.getExecutionCancelSignal()?.aborted === true;
			failure =
				deadline.signal.aborted && !cancelled
					? timeoutFailure(facts)
					: failureFromError(error, facts);
		} finally {
			deadline.release();
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

	let settings: Omit<Run, 'deadlines'>;
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
	const run: Run = { ...settings, deadlines: new Deadlines(this) };
	// Until the node returns normally, n8n treats the try as failed (it threw).
	let retryFollows = true;
	const cancel = this.getExecutionCancelSignal();
	const { batchSize, batchIntervalMs } = run.options;
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
						const json = accepted?.earlier(itemIndex) ?? (await triggerItem(run, itemIndex));
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
		run.deadlines.dispose();
		accepted?.finish(retryFollows);
	}
	return [results];
}
