/**
 * What went wrong → what n8n shows: its own error classes, with the item index; the item Continue
 * On Fail puts out; the execution hints above the output. The one place the node makes n8n errors:
 * bad input becomes a NodeOperationError, a request without an accepted answer a NodeApiError.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	JsonObject,
	NodeExecutionHint,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { LABELS, inOptions } from '../description';
import type { Failure } from './failure';
import { MAY_HAVE_RUN, TriggerError, fromN8n } from './failure';

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
		const { input, message, httpCode } = error.failure;
		const options = { message, description: describe(error.failure), itemIndex };
		const nodeError = input
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
	return toNodeError(ctx, fromN8n(error), itemIndex);
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
	if (!note) return nodeError;
	// The description may end with what the service said, as it said it: a full stop sets it apart.
	const said = nodeError.description?.replace(/([^.!?…])$/, '$1.');
	nodeError.description = said ? `${said} ${note}` : note;
	return nodeError;
}

/**
 * Execution hints, shown above the node's output after a run: a preview sent nothing; under
 * Continue On Fail, how many items failed and what to do about them.
 */
export function previewHint(): NodeExecutionHint {
	return {
		type: 'warning',
		location: 'outputPane',
		message: `Preview only: nothing was sent and no run was created. Turn off ${inOptions(LABELS.preview)} to start runs.`,
	};
}

/** `failed` items of `total` failed; `mayHaveRun` of them may have created a run. */
export function failuresHint(failed: number, mayHaveRun: number, total: number): NodeExecutionHint {
	const items = `${failed} of ${total} item${total === 1 ? '' : 's'}`;
	const message =
		mayHaveRun === 0
			? `${items} failed and created no run: fix what their errors say, then run them again.`
			: `${items} failed; ${mayHaveRun} of them may have created a run: check the automation's run history before running ${mayHaveRun === 1 ? 'it' : 'those'} again. ` +
				(mayHaveRun < failed
					? 'The others created no run: fix what their errors say, then run them again.'
					: '');
	return { type: 'warning', location: 'outputPane', message: message.trim() };
}
