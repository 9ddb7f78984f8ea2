/**
 * What went wrong → n8n's error classes with the item index, and the item Continue On Fail puts out.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { ItemFailure } from './failure';
import { InputError } from './inputError';

export function toNodeError(
	ctx: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	if (error instanceof ItemFailure) {
		const { kind, message, description, httpCode } = error.failure;
		if (kind === 'input') {
			return new NodeOperationError(ctx.getNode(), message, { description, itemIndex });
		}
		const apiError = new NodeApiError(
			ctx.getNode(),
			{ message, httpCode: httpCode ?? null } as JsonObject,
			{ message, description, httpCode, itemIndex },
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
