/**
 * Parameters → body bytes. Pure functions over values n8n has already resolved, so every rule about
 * what may be sent is checked here, before anything is signed.
 */
import type {
	AssignmentCollectionValue,
	AssignmentValue,
	FieldType,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
} from 'n8n-workflow';
import { validateFieldType } from 'n8n-workflow';

import { isPlainObject } from '../../../credentials/common/plainObject';
import { badInput, fromN8n } from '../answer/failure';
import type { ContextMode } from '../description';
import { LABELS, inContext } from '../description';

/**
 * A parameter's value for an item, as n8n resolves it. An expression that gives an object
 * containing itself makes n8n overflow the stack while it copies the value; that becomes an error
 * naming the parameter. n8n's own errors (an expression error …) already say what is wrong and go
 * on as they are.
 */
function itemParameter(
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
		throw fromN8n(error);
	}
}

function kindOf(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'an array';
	return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** data.message: text as typed; numbers and booleans become text, anything else is refused. */
export function messageText(value: unknown): string {
	if (typeof value === 'string') {
		if (value.trim() === '') {
			throw badInput(
				'The message is empty',
				`Type the instruction for the AI in ${LABELS.message}, or check that its expression gives text for this item.`,
			);
		}
		return value;
	}
	if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean') {
		return String(value);
	}
	if (typeof value === 'bigint') return value.toString();
	if (value === null || value === undefined) {
		throw badInput(
			`The message is empty: its expression gave ${value === null ? 'null' : 'undefined'}`,
			`Check that the field used in ${LABELS.message} exists on this item.`,
		);
	}
	throw badInput(
		`The message must be text, but its expression gave ${typeof value === 'number' ? String(value) : kindOf(value)}`,
		'Pick a text field, or turn the value into text, e.g. {{ JSON.stringify($json.order) }}.',
	);
}

function parseJson(text: string): { value: unknown } | { error: string } {
	try {
		return { value: JSON.parse(text) as unknown };
	} catch (error) {
		return { error: (error as Error).message };
	}
}

/** Context → JSON: a JSON object, or text holding one. */
export function contextFromJson(value: unknown): IDataObject {
	if (value === undefined) {
		throw badInput(
			`${LABELS.contextJson} is empty: its expression gave undefined`,
			`Check that the field used in ${LABELS.contextJson} exists on this item, or set ${LABELS.context} to None.`,
		);
	}
	let parsed: unknown = value;
	if (typeof value === 'string') {
		if (value.trim() === '') {
			throw badInput(
				`${LABELS.contextJson} is empty`,
				`Write a JSON object such as {"orderId": 42}, or set ${LABELS.context} to None.`,
			);
		}
		const result = parseJson(value);
		if ('error' in result) {
			throw badInput(
				`${LABELS.contextJson} is not valid JSON: ${result.error}`,
				'Check quotes, commas and brackets. Text from expressions must be quoted, e.g. "name": "{{ $json.name }}".',
			);
		}
		parsed = result.value;
	}
	if (!isPlainObject(parsed)) {
		throw badInput(
			`${LABELS.contextJson} must be a JSON object, but it is ${kindOf(parsed)}`,
			'Wrap the value in an object, e.g. {"items": [...]}.',
		);
	}
	return parsed;
}

const FIELD_TYPES = new Set(['string', 'number', 'boolean', 'array', 'object']);

/**
 * n8n's type check names the field itself ("'orderId' expects a number but we got 'abc'"): that
 * name is dropped, as the message already starts with it.
 */
function typeError(name: string, type: string, message: string | undefined): string {
	const field = `Context field "${name}"`;
	if (message === undefined) return `${field}: the value is not of type ${type}`;
	const ownName = `'${name}' `;
	return message.startsWith(ownName)
		? `${field} ${message.slice(ownName.length)}`
		: `${field}: ${message}`;
}

/** Context → Selected Fields: named, typed values as the Edit Fields node sets them. */
export function contextFromFields(assignments: AssignmentValue[] | undefined): IDataObject {
	const context: IDataObject = {};
	const seen = new Set<string>();
	(assignments ?? []).forEach((field, index) => {
		const name = typeof field.name === 'string' ? field.name : '';
		if (name.trim() === '') {
			throw badInput(
				`Context field ${index + 1} has no name`,
				`Give every field under ${LABELS.contextFields} a name, or remove the empty one.`,
			);
		}
		if (seen.has(name)) {
			throw badInput(
				`Context field "${name}" is set twice`,
				`Each name may appear once under ${LABELS.contextFields}; remove or rename the duplicate.`,
			);
		}
		seen.add(name);
		const type = field.type ?? 'string';
		let value: unknown = field.value;
		if (FIELD_TYPES.has(type)) {
			const result = validateFieldType(name, value, type as FieldType);
			if (!result.valid) {
				throw badInput(
					typeError(name, type, result.errorMessage),
					`Change the value, or the type of the field (now ${type}).`,
				);
			}
			value = result.newValue;
		}
		// defineProperty: a field may be called "__proto__" without touching the prototype.
		Object.defineProperty(context, name, {
			value,
			enumerable: true,
			writable: true,
			configurable: true,
		});
	});
	return context;
}

/** The body text `{"data":{"message":…,"context":…}}`, serialized exactly once. */
export function serializeBody(message: string, context: IDataObject | undefined): string {
	const data = context === undefined ? { message } : { message, context };
	let problem: string;
	try {
		return JSON.stringify({ data });
	} catch (error) {
		// BigInt needs no case: n8n-workflow gives it a toJSON (its decimal text).
		problem = (error as Error).message;
	}
	if (/circular/i.test(problem)) {
		throw badInput(
			'The context contains a circular reference (an object that contains itself)',
			`Select the fields to send with ${inContext('selectedFields')} instead of sending the whole object.`,
		);
	}
	throw badInput(`The context cannot be turned into JSON: ${problem}`);
}

/** An item's parameters → the exact bytes to sign and send. */
export function bodyForItem(
	ctx: IExecuteFunctions,
	item: INodeExecutionData,
	itemIndex: number,
): Buffer {
	const read = (name: string, label: string, fallback?: unknown) =>
		itemParameter(ctx, name, label, itemIndex, fallback);
	const message = messageText(read('message', LABELS.message));
	const mode = read('contextMode', LABELS.context, 'none') as ContextMode;
	let context: IDataObject | undefined;
	if (mode === 'allFields') {
		context = item.json;
	} else if (mode === 'selectedFields') {
		const fields = read('contextFields', LABELS.contextFields, {}) as AssignmentCollectionValue;
		context = contextFromFields(fields.assignments);
	} else if (mode === 'json') {
		context = contextFromJson(read('contextJson', LABELS.contextJson));
	}
	return Buffer.from(serializeBody(message, context), 'utf8');
}
