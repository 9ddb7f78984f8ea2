/**
 * The node's parameters for each item. n8n resolves and copies a parameter on every read; one with
 * no expression anywhere in it has the same value for every item, so it is read once per execution.
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { inContext } from './description';
import { toNodeError } from './nodeErrors';

/** n8n marks an expression with a leading "=", at any depth of a parameter's value. */
function hasExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(hasExpression);
	if (value !== null && typeof value === 'object') return Object.values(value).some(hasExpression);
	return false;
}

/**
 * A parameter's value for an item. An expression that gives an object containing itself makes n8n
 * overflow the stack while it copies the value; that becomes an error naming the parameter.
 */
function read(
	ctx: IExecuteFunctions,
	name: string,
	label: string,
	itemIndex: number,
	fallback: unknown,
) {
	try {
		return ctx.getNodeParameter(name, itemIndex, fallback);
	} catch (error) {
		if (error instanceof RangeError && /call stack/i.test(error.message)) {
			throw new NodeOperationError(
				ctx.getNode(),
				`${label}: its expression gave an object that contains itself (a circular reference)`,
				{
					description: `Pick the values to send, e.g. with ${inContext('selectedFields')}, not the whole object.`,
					itemIndex,
				},
			);
		}
		// n8n's own error (an expression error …): already says what is wrong; as a node error of this item.
		throw toNodeError(ctx, error, itemIndex);
	}
}

export class ItemParameters {
	private readonly fixed = new Map<string, unknown>();

	constructor(private readonly ctx: IExecuteFunctions) {}

	get(name: string, label: string, itemIndex: number, fallback?: unknown): unknown {
		if (this.fixed.has(name)) return this.fixed.get(name);
		const value = read(this.ctx, name, label, itemIndex, fallback);
		// Kept only once read without error: a failing read fails each item with its own index.
		if (!hasExpression(this.ctx.getNode().parameters[name])) this.fixed.set(name, value);
		return value;
	}
}
