/**
 * What went wrong → n8n's own error classes, with the item index, and the item Continue On Fail
 * puts out. The one place the node makes n8n errors: bad input becomes a NodeOperationError, a
 * request without an accepted answer a NodeApiError.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { Failure } from './failure';
import { MAY_HAVE_RUN, TriggerError } from './failure';

/**
 * The description a user reads. When a run may exist, checking the run history comes first: it is
 * what to do before anything else. Then the failure's own, which says what to do, then why.
 */
export function describe(failure: Failure): string | undefined {
	if (!failure.mayHaveRun) return failure.description;
	return failure.description ? `${MAY_HAVE_RUN} ${failure.description}` : MAY_HAVE_RUN;
}

export function toNodeError(
	ctx: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	if (error instanceof TriggerError) {
		const { kind, message, httpCode } = error.failure;
		const options = { message, description: describe(error.failure), itemIndex };
		const nodeError =
			kind === 'input'
				? new NodeOperationError(ctx.getNode(), message, options)
				: new NodeApiError(ctx.getNode(), { message, httpCode: httpCode ?? null } as JsonObject, {
						...options,
						httpCode,
					});
		// Both classes swap a message that mentions a network error code (ENOTFOUND …) for a
		// generic one, some advising an immediate retry; ours says what happened to the run.
		nodeError.message = message;
		return nodeError;
	}
	if (error instanceof NodeOperationError) {
		error.context.itemIndex ??= itemIndex;
		return error;
	}
	// Expression errors and the like come from n8n itself and already say what is wrong.
	const message = error instanceof Error ? error.message : String(error);
	const description = (error as { description?: unknown } | undefined)?.description;
	return new NodeOperationError(ctx.getNode(), message, {
		description: typeof description === 'string' ? description : undefined,
		itemIndex,
	});
}

/**
 * The Continue On Fail item, shaped as n8n's engine recognises an error item (only the keys `error`
 * and `details`, so it is routed to the error output). No `error` property on the item: the engine
 * would replace the JSON with the message alone, losing how to fix it and the status code.
 */
export function errorItem(
	error: NodeApiError | NodeOperationError,
	itemIndex: number,
): INodeExecutionData {
	const details: IDataObject = { itemIndex };
	if (error.description) details.description = error.description;
	if (error instanceof NodeApiError && error.httpCode) details.httpCode = error.httpCode;
	return { json: { error: error.message, details }, pairedItem: { item: itemIndex } };
}

/**
 * The error that ends the execution, with what n8n's Retry of it will do (acceptedItems.ts): pass
 * on the `accepted` items and send the others, this one too even if it may have created a run.
 */
export function withRetryNote<E extends NodeApiError | NodeOperationError>(
	nodeError: E,
	cause: unknown,
	accepted: number,
	total: number,
): E {
	const mayHaveRun = cause instanceof TriggerError && cause.failure.mayHaveRun;
	let note: string | undefined;
	if (accepted > 0) {
		note =
			`${accepted} of ${total} items were accepted: n8n's Retry of this execution passes them on ` +
			`without sending them again, and sends only the others${mayHaveRun ? ', this one included' : ''}.`;
	} else if (mayHaveRun) {
		note = "n8n's Retry of this execution sends this item again.";
	}
	if (note) nodeError.description = [nodeError.description, note].filter(Boolean).join(' ');
	return nodeError;
}
