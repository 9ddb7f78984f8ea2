import type { IDataObject } from 'n8n-workflow';

/** An object literal or JSON.parse result: what JSON.stringify writes as {…} without surprises. */
export function isPlainObject(value: unknown): value is IDataObject {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
	const proto = Object.getPrototypeOf(value) as unknown;
	return proto === Object.prototype || proto === null;
}
