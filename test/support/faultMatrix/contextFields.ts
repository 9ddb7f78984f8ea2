/** The matrix's cases: Context: All Input Fields and Selected Fields. */
import { expect } from 'vitest';

import { DATE, HUGE_LENGTH } from '../oddItems';
import { sentContext, SPEC_BODY_OBJECT, SPEC_MESSAGE } from './shared';
import type { MatrixCase } from './types';

export const contextFieldsCases: MatrixCase[] = [
	// ── Context: All Input Fields ───────────────────────────────────────────────────────────
	{
		id: 'all-fields-bigint',
		group: 'Context: All Input Fields',
		case: 'Input item with a BigInt field',
		rule: 'a BigInt field of the input item is sent as a decimal string',
		parameters: { contextMode: 'allFields' },
		odd: 'bigint',
		requests: 1,
		expect: { kind: 'sent', check: sentContext('12345678901234567890') },
		note: 'Sent as `"12345678901234567890"`.',
		spec: "Silent; chosen: n8n's BigInt serialisation (decimal text).",
	},
	{
		id: 'all-fields-circular',
		group: 'Context: All Input Fields',
		case: 'Input item that contains itself',
		rule: 'a circular input item fails only its item and says how to send part of it',
		parameters: { contextMode: 'allFields' },
		odd: 'circular',
		requests: 0,
		expect: {
			kind: 'error',
			code: 'bad_input',
			message: 'The context contains a circular reference (an object that contains itself)',
			description: 'Select the fields to send with Context → Selected Fields',
		},
		spec: SPEC_BODY_OBJECT,
	},
	{
		id: 'all-fields-undefined-values',
		group: 'Context: All Input Fields',
		case: 'Input item with `undefined` values',
		rule: 'undefined fields of the input item are left out',
		parameters: { contextMode: 'allFields' },
		odd: 'undefinedValues',
		requests: 1,
		expect: { kind: 'sent', check: sentContext({ kept: 1, list: [1, null, 3] }) },
		note: 'Left out; in arrays `null`.',
		spec: 'Silent; chosen: `JSON.stringify` rules.',
	},
	{
		id: 'all-fields-date',
		group: 'Context: All Input Fields',
		case: 'Input item with a `Date`',
		rule: 'a Date field of the input item is sent as ISO 8601 text',
		parameters: { contextMode: 'allFields' },
		odd: 'date',
		requests: 1,
		expect: { kind: 'sent', check: sentContext({ when: DATE.toISOString() }) },
		note: 'ISO 8601 text.',
		spec: 'Silent; chosen: ISO 8601 in UTC.',
	},
	{
		id: 'all-fields-lone-surrogates',
		group: 'Context: All Input Fields',
		case: 'Input item text with lone surrogates',
		rule: 'lone surrogates of the input item are sent as JSON escapes',
		parameters: { contextMode: 'allFields' },
		odd: 'loneSurrogate',
		requests: 1,
		expect: { kind: 'sent', check: sentContext({ text: 'high \ud800 low \udc00 end' }) },
		note: 'JSON escapes.',
		spec: 'Silent; chosen: JSON escapes.',
	},
	{
		id: 'all-fields-10mb',
		group: 'Context: All Input Fields',
		case: 'Input item with a 10 MB string',
		rule: 'a 10 MB context is sent whole and signed over exactly the bytes sent',
		parameters: { contextMode: 'allFields' },
		odd: 'huge',
		requests: 1,
		expect: {
			kind: 'sent',
			check: (data, request) => {
				expect((data.context?.ctx as { blob: string }).blob.length).toBe(HUGE_LENGTH);
				expect(request.body.length).toBeGreaterThan(HUGE_LENGTH);
			},
		},
		note: 'No size limit in the node; a service limit shows as 413 (below).',
		spec: 'Silent (§8: body size limits not shown); chosen: no limit of our own.',
	},
	{
		id: 'all-fields-binary-only',
		group: 'Context: All Input Fields',
		case: 'Input item with binary data only (`json` empty)',
		rule: 'a binary-only item is sent with an empty context and without its binary data',
		parameters: { message: 'Process the attached invoice', contextMode: 'allFields' },
		odd: 'binaryOnly',
		requests: 1,
		expect: {
			kind: 'sent',
			check: (data) =>
				expect(data).toEqual({ message: 'Process the attached invoice', context: {} }),
		},
		note: 'Sent as `"context":{}`; the binary data is not sent.',
		spec: 'Silent on files; chosen: the body is JSON only (§4), so binary data is never sent.',
	},
	{
		id: 'binary-only-message-expression',
		group: 'Context: All Input Fields',
		case: 'Binary-only item with Message from `$json`',
		rule: 'a binary-only item whose message reads $json fails only its item',
		odd: 'binaryOnly',
		requests: 0,
		expect: {
			kind: 'error',
			code: 'bad_input',
			message: 'The message is empty: its expression gave undefined',
			description: 'Check that the field used in Message exists on this item.',
		},
		spec: SPEC_MESSAGE,
	},

	// ── Context: Selected Fields ────────────────────────────────────────────────────────────
	{
		id: 'fields-duplicate-name',
		group: 'Context: Selected Fields',
		case: 'Two fields named `orderId`',
		rule: 'a repeated field name fails every item and names the field',
		scope: 'all',
		parameters: {
			contextMode: 'selectedFields',
			contextFields: {
				assignments: [
					{ id: '1', name: 'orderId', value: '1', type: 'string' },
					{ id: '2', name: 'orderId', value: '2', type: 'string' },
				],
			},
		},
		requests: 0,
		expect: {
			kind: 'error',
			code: 'bad_input',
			message: 'Context field "orderId" is set twice',
			description: 'remove or rename the duplicate',
		},
		spec: 'Silent (context is free-form; JSON keys should be unique); chosen: refuse rather than let one win.',
	},
	{
		id: 'fields-duplicate-name-expression',
		group: 'Context: Selected Fields',
		case: 'A field name from an expression repeats another for one item',
		rule: 'a field name that repeats another for one item fails only that item',
		parameters: {
			contextMode: 'selectedFields',
			contextFields: {
				assignments: [
					{ id: '1', name: 'first', value: '1', type: 'string' },
					{ id: '2', name: '={{ $json.k }}', value: '2', type: 'string' },
				],
			},
		},
		item1: { k: 'first' },
		requests: 0,
		expect: {
			kind: 'error',
			code: 'bad_input',
			message: 'Context field "first" is set twice',
			description: 'remove or rename the duplicate',
		},
		spec: 'Silent; chosen: refuse.',
	},
	{
		id: 'fields-empty-name',
		group: 'Context: Selected Fields',
		case: 'A field with an empty name',
		rule: 'a field without a name fails every item and says which field',
		scope: 'all',
		parameters: {
			contextMode: 'selectedFields',
			contextFields: {
				assignments: [
					{ id: '1', name: 'orderId', value: '1', type: 'string' },
					{ id: '2', name: '', value: '2', type: 'string' },
				],
			},
		},
		requests: 0,
		expect: {
			kind: 'error',
			code: 'bad_input',
			message: 'Context field 2 has no name',
			description: 'Give every field under Context Fields a name, or remove the empty one.',
		},
		spec: 'Silent; chosen: refuse (an empty key is legal JSON but almost surely a slip).',
	},
	{
		id: 'fields-blank-name-expression',
		group: 'Context: Selected Fields',
		case: 'A field name from an expression is blank for one item',
		rule: 'a field name that is blank for one item fails only that item',
		parameters: {
			contextMode: 'selectedFields',
			contextFields: {
				assignments: [
					{ id: '1', name: 'first', value: '1', type: 'string' },
					{ id: '2', name: '={{ $json.k }}', value: '2', type: 'string' },
				],
			},
		},
		item1: { k: '   ' },
		requests: 0,
		expect: {
			kind: 'error',
			code: 'bad_input',
			message: 'Context field 2 has no name',
			description: 'Give every field under Context Fields a name',
		},
		spec: 'Silent; chosen: refuse.',
	},
	{
		id: 'fields-type-mismatch',
		group: 'Context: Selected Fields',
		case: 'A Number field whose value is `abc` for one item',
		rule: 'a value that does not match its field type fails only its item and names the field',
		parameters: {
			contextMode: 'selectedFields',
			contextFields: {
				assignments: [
					{
						id: '1',
						name: 'count',
						value: '={{ $json.m === "item 1" ? "abc" : 3 }}',
						type: 'number',
					},
				],
			},
		},
		requests: 0,
		expect: {
			kind: 'error',
			code: 'bad_input',
			message: 'Context field "count" expects a number but we got {any}',
			description: 'Change the value, or the type of the field (now number).',
		},
		spec: "Silent; chosen: the Edit Fields node's type check.",
	},
	{
		id: 'fields-proto-name',
		group: 'Context: Selected Fields',
		case: 'A field named `__proto__`',
		rule: 'a field named __proto__ is sent as an ordinary key',
		parameters: {
			contextMode: 'selectedFields',
			contextFields: { assignments: [{ id: '1', name: '__proto__', value: 'x', type: 'string' }] },
		},
		requests: 1,
		expect: {
			kind: 'sent',
			check: (_data, request) =>
				expect(request.body.toString('utf8')).toBe(
					'{"data":{"message":"item 1","context":{"__proto__":"x"}}}',
				),
		},
		note: 'Sent as `{"__proto__":"x"}`; no prototype is touched.',
		spec: 'Silent; chosen: names are used literally.',
	},
	{
		id: 'fields-circular-value',
		group: 'Context: Selected Fields',
		case: 'An Object field whose value contains itself',
		rule: 'a circular field value fails only its item and names the parameter',
		parameters: {
			contextMode: 'selectedFields',
			contextFields: {
				assignments: [
					{ id: '1', name: 'order', value: '={{ $json.ctx ?? $json.c }}', type: 'object' },
				],
			},
		},
		odd: 'circular',
		requests: 0,
		expect: {
			kind: 'error',
			code: 'bad_input',
			message:
				'Context Fields: its expression gave an object that contains itself (a circular reference)',
			description: 'Pick the values to send',
		},
		spec: SPEC_BODY_OBJECT,
	},
];
