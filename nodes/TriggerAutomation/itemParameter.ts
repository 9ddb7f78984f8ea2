/**
 * A parameter's value for an item, as n8n resolves it. An expression that gives an object
 * containing itself makes n8n overflow the stack while it copies the value; that becomes an error
 * naming the parameter. n8n's own errors (an expression error …) already say what is wrong and are
 * passed on as node errors of this item.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { inContext } from './description';
import { badInput } from './failure';
import { toNodeError } from './nodeError';

export function itemParameter(
	ctx: IExecuteFunctions,
	name: string,
	label: string,
	itemIndex: number,
	fallback?: unknown,
): unknown {
	try {
		return ctx.getNodeParameter(name, itemIndex, fallback);
	} catch (error) {
		if (error instanceof RangeError && /call stack/i.test(error.message)) {
			throw badInput(
				`${label}: its expression gave an object that contains itself (a circular reference)`,
				`Pick the values to send, e.g. with ${inContext('selectedFields')}, not the whole object.`,
			);
		}
		throw toNodeError(ctx, error, itemIndex);
	}
}
