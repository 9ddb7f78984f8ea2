/**
 * A problem with the item's data or the node's parameters, found before anything is sent; its
 * message says how to fix it. Becomes n8n's NodeOperationError with the item index (nodeErrors.ts).
 */
export class InputError extends Error {
	constructor(
		message: string,
		readonly description?: string,
	) {
		super(message);
		this.name = 'InputError';
	}
}
