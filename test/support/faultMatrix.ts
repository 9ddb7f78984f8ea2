/**
 * The fault and bad-input matrix: one table that both drives the tests (test/faults.*.test.ts) and
 * is rendered into README.md's troubleshooting section (test/faults.matrix.test.ts). A case says
 * what is wrong, what the node must do about it, how many requests of the affected item may reach
 * the service, and what the spec says (or that it is silent and what was chosen).
 *
 * Every case runs with three items, of which only the middle one (item 1) is affected — except
 * scope 'all' cases (credential problems), which affect every item.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { expect } from 'vitest';

import type { FaultyRequest } from './faultyReceiver';
import type { Odd } from './oddItems';
import { DATE, HUGE_LENGTH } from './oddItems';

export type Group =
	| 'Message'
	| 'Context (JSON)'
	| 'Context: All Input Fields'
	| 'Context: Selected Fields'
	| 'Webhook URL'
	| 'Signing secret'
	| 'Options'
	| 'Connection'
	| 'Timeouts'
	| 'Answers of the service'
	| 'TLS'
	| 'Stopping and retrying';

/** Groups of bad inputs (parameters, items, credential); the others are faults. */
export const INPUT_GROUPS: Group[] = [
	'Message',
	'Context (JSON)',
	'Context: All Input Fields',
	'Context: Selected Fields',
	'Webhook URL',
	'Signing secret',
	'Options',
];

export interface AnswerSpec {
	status: number;
	/** Leave out the Date header Node's HTTP server adds by itself. */
	noDate?: boolean;
	/** Headers; `base` is the receiver's base URL (for a Location that points back at it). */
	headers?: (base: string) => Record<string, string>;
	body?: string;
}

/** How the receiver (or the local DNS) misbehaves for item 1's request. */
export type Fault =
	/** Item 1's attempts are answered in this order (the last one repeats). */
	| { kind: 'answers'; list: AnswerSpec[] }
	/** Item 1's connection is reset as soon as it is accepted, before anything is read. */
	| { kind: 'resetBeforeBody' }
	/** Item 1's body is read in full, then the connection is reset without an answer. */
	| { kind: 'resetAfterBody' }
	/** 200 and part of the body, then the connection is reset. */
	| { kind: 'resetMidAnswer' }
	/** The status line and headers come after `ms`. */
	| { kind: 'slowHeaders'; ms: number }
	/** 200 at once, then one byte every `everyMs` until `totalMs`. */
	| { kind: 'trickle'; everyMs: number; totalMs: number }
	/** Item 1's first `times` connections are refused (its host resolves to a dead loopback address). */
	| { kind: 'refuse'; times: number }
	/** Item 1's host lookups fail `times` times with `code`. */
	| { kind: 'dns'; code: 'ENOTFOUND' | 'EAI_AGAIN'; times: number };

export type Outcome =
	/** The item is sent and its output carries the answer. */
	| {
			kind: 'sent';
			/** Checks on the `data` of the body the service received for item 1. */
			check?: (data: { message: string; context?: IDataObject }, request: FaultyRequest) => void;
			statusCode?: number;
			/** The `response` of item 1's output (default: the receiver's JSON answer). */
			response?: unknown;
	  }
	/** The item fails; `{host}` stands for host:port of the webhook URL, `{any}` for any text. */
	| { kind: 'error'; message: string; description: string; httpCode?: string }
	/** n8n refuses to start the workflow (a parameter issue), so nothing runs. */
	| { kind: 'notStarted'; message: string };

export interface MatrixCase {
	id: string;
	group: Group;
	/** README: what is wrong. */
	case: string;
	/** The rule the tests prove: the test names. */
	rule: string;
	/** README: more about the behaviour. */
	note?: string;
	/** README: the spec section that decides it, or "Silent: …" with what was chosen. */
	spec: string;
	/** 'all': a credential or parameter problem that affects every item. */
	scope?: 'item' | 'all';
	/** Trigger Automation parameters, over `{ message: '={{ $json.m }}' }`. */
	parameters?: INodeParameters;
	/** Item 1's JSON, over `{ m: 'item 1', c: { n: 1 }, k: 'second' }`. */
	item1?: IDataObject;
	/** Item 1 passes a test-only node that gives it a value JSON cannot carry (in `json.ctx`). */
	odd?: Odd;
	/** The webhook URL, from the receiver's base URL; default `${base}/webhooks/cloud/auto-7`. */
	url?: (base: string) => string;
	/** The path requests must arrive at (default /webhooks/cloud/auto-7). */
	path?: string;
	secret?: string;
	/** The receiver speaks TLS with a self-signed certificate made at test time. */
	tls?: boolean;
	fault?: Fault;
	/** How many requests of each affected item reach the service. */
	requests: number;
	expect: Outcome;
	/** Run by a dedicated test instead of the generic three-mode one. */
	custom?: boolean;
}

export const SECRET = 'whsec_matrix_9f8e7d6c5b4a';
export const AUTOMATION_ID = 'auto-7';
export const PATH = `/webhooks/cloud/${AUTOMATION_ID}`;
export const HOST = 'svc.invalid';

export function baseItem(n: number): IDataObject {
	return { m: `item ${n}`, c: { n }, k: 'second' };
}

const ITEM1_BYTES = Buffer.byteLength(JSON.stringify({ data: { message: 'item 1' } }));
const NEVER_RESENT = 'Never re-sent by the node, even with Retries When Not Accepted set.';
const MAY_HAVE_RUN =
	"The run may or may not have been created: check the automation's run history before running this item again.";
const URL_HINT =
	"Expected {base_url}/webhooks/cloud/<automation_id>. Copy the webhook URL from the automation's Webhook details in the desktop app.";
const SPEC_BODY_OBJECT = '§2, §4: `data.context` is an object (free-form).';
const SPEC_MESSAGE = '§2: `data.message` is a required string.';
const SPEC_PATH = '§2, §4: path `{base_url}/webhooks/cloud/<automation_id>`.';
const SPEC_ERRORS_SILENT = 'Silent (§7: error statuses not shown)';

const sentContext = (expected: unknown) => (data: { context?: IDataObject }) =>
	expect(data.context?.ctx).toEqual(expected);

const answer = (
	status: number,
	headers?: AnswerSpec['headers'],
	body?: string,
	noDate?: boolean,
): Fault => ({
	kind: 'answers',
	list: [{ status, headers, body, noDate }],
});

const redirect = (status: number): MatrixCase => ({
	id: `redirect-${status}`,
	group: 'Answers of the service',
	case: `${status} with a Location (pointing back at the same service)`,
	rule: `a ${status} redirect is reported with its Location and never followed`,
	fault: answer(status, (base) => ({ Location: `${base}/elsewhere` })),
	requests: 1,
	expect: {
		kind: 'error',
		message: `The service answered with a redirect (${status}) to http://{host}/elsewhere`,
		description: 'Redirects are never followed',
		httpCode: String(status),
	},
	note: 'Nothing is sent to the Location (a signed request must not go elsewhere).',
	spec: 'Silent on redirects; chosen: never follow (§5.8: the signature must only reach the automation).',
});

const serverError = (status: number): MatrixCase => ({
	id: `server-error-${status}`,
	group: 'Answers of the service',
	case: `${status} (with Retries When Not Accepted = 2)`,
	rule: `a ${status} fails the item as "may have run" and is never re-sent`,
	parameters: { options: { retries: 2 } },
	fault: answer(status, undefined, 'upstream trouble'),
	requests: 1,
	expect: {
		kind: 'error',
		message: `The service failed to handle the request (${status})`,
		description: `${MAY_HAVE_RUN} The service said: upstream trouble`,
		httpCode: String(status),
	},
	note: NEVER_RESENT,
	spec: `${SPEC_ERRORS_SILENT}; chosen: a 5xx may have created the run, so it is not re-sent.`,
});

const skewed = (status: number, offsetMs: number, direction: string): MatrixCase => ({
	id: `signature-rejected-${status}-skew-${offsetMs > 0 ? 'server-ahead' : 'server-behind'}`,
	group: 'Answers of the service',
	case: `${status} with a \`Date\` header 10 minutes ${offsetMs > 0 ? 'ahead of' : 'behind'} this machine`,
	rule: `a ${status} with a skewed Date header reports the clock skew and says to synchronise the clock`,
	fault: answer(
		status,
		() => ({ Date: new Date(Date.now() + offsetMs).toUTCString() }),
		'{"error":"expired_signature"}',
	),
	requests: 1,
	expect: {
		kind: 'error',
		message: `The service rejected the signature (${status})`,
		description: `this machine's clock is {any} s ${direction} the service's, more than the 5 minutes a signature is valid: synchronise the clock of the machine running n8n (NTP).`,
		httpCode: String(status),
	},
	note: 'The description gives server time, signature timestamp and the skew in seconds.',
	spec: 'Silent on statuses (§7); chosen: 401/403 = signature rejected, explained with the clocks (§5.7: valid 5 minutes).',
});

/** An option the node cannot run with: every item fails with its message, nothing is sent. */
function optionCase(
	id: string,
	what: string,
	options: INodeParameters,
	message: string,
	spec: string,
): MatrixCase {
	return {
		id,
		group: 'Options',
		case: what,
		rule: `${what}: every item fails with a message naming the option`,
		scope: 'all',
		parameters: { options },
		requests: 0,
		expect: { kind: 'error', message, description: 'remove the option to use its default' },
		spec,
	};
}

export const CASES: MatrixCase[] = [
	// ── Message ─────────────────────────────────────────────────────────────────────────────
	{
		id: 'message-missing',
		group: 'Message',
		case: 'Message parameter missing',
		rule: 'a workflow without a Message is refused by n8n before anything is sent',
		scope: 'all',
		parameters: { message: undefined },
		requests: 0,
		expect: {
			kind: 'notStarted',
			message: `The 'Trigger Automation' node has issues:{any}Parameter "Message" is required.`,
		},
		spec: SPEC_MESSAGE,
	},
	{
		id: 'message-empty',
		group: 'Message',
		case: 'Message `""`',
		rule: 'an empty Message is refused by n8n before anything is sent',
		scope: 'all',
		parameters: { message: '' },
		requests: 0,
		expect: {
			kind: 'notStarted',
			message: `The 'Trigger Automation' node has issues:{any}Parameter "Message" is required.`,
		},
		spec: SPEC_MESSAGE,
	},
	{
		id: 'message-whitespace',
		group: 'Message',
		case: 'Message of spaces only',
		rule: 'a blank Message fails every item and sends nothing',
		scope: 'all',
		parameters: { message: '  \t ' },
		requests: 0,
		expect: {
			kind: 'error',
			message: 'The message is empty',
			description: 'Type the instruction for the AI in Message',
		},
		spec: `${SPEC_MESSAGE} Silent on blank text; chosen: refuse it (an instruction is needed).`,
	},
	{
		id: 'message-expression-empty',
		group: 'Message',
		case: 'Message expression gives `""` for one item',
		rule: 'an empty message from an expression fails only its item',
		item1: { m: '' },
		requests: 0,
		expect: {
			kind: 'error',
			message: 'The message is empty',
			description: 'check that its expression gives text',
		},
		spec: SPEC_MESSAGE,
	},
	{
		id: 'message-expression-blank',
		group: 'Message',
		case: 'Message expression gives whitespace (`" \\n\\t "`)',
		rule: 'a blank message from an expression fails only its item',
		item1: { m: ' \n\t ' },
		requests: 0,
		expect: {
			kind: 'error',
			message: 'The message is empty',
			description: 'check that its expression gives text',
		},
		spec: `${SPEC_MESSAGE} Silent on blank text; chosen: refuse it.`,
	},
	{
		id: 'message-expression-undefined',
		group: 'Message',
		case: 'Message expression reads a field the item does not have',
		rule: 'a message expression that gives undefined fails only its item and names the cause',
		item1: { m: undefined },
		requests: 0,
		expect: {
			kind: 'error',
			message: 'The message is empty: its expression gave undefined',
			description: 'Check that the field used in Message exists on this item.',
		},
		spec: SPEC_MESSAGE,
	},
	{
		id: 'message-expression-null',
		group: 'Message',
		case: 'Message expression gives `null`',
		rule: 'a message expression that gives null fails only its item',
		item1: { m: null },
		requests: 0,
		expect: {
			kind: 'error',
			message: 'The message is empty: its expression gave null',
			description: 'Check that the field used in Message exists on this item.',
		},
		spec: SPEC_MESSAGE,
	},
	{
		id: 'message-expression-number',
		group: 'Message',
		case: 'Message expression gives a number (`12.5`)',
		rule: 'a number from the message expression is sent as its text',
		item1: { m: 12.5 },
		requests: 1,
		expect: { kind: 'sent', check: (data) => expect(data.message).toBe('12.5') },
		note: 'Sent as `"12.5"`.',
		spec: `${SPEC_MESSAGE} Silent on numbers; chosen: their text, as typed in chat.`,
	},
	{
		id: 'message-expression-boolean',
		group: 'Message',
		case: 'Message expression gives a boolean (`false`)',
		rule: 'a boolean from the message expression is sent as its text',
		item1: { m: false },
		requests: 1,
		expect: { kind: 'sent', check: (data) => expect(data.message).toBe('false') },
		note: 'Sent as `"false"`.',
		spec: `${SPEC_MESSAGE} Silent; chosen: the text.`,
	},
	{
		id: 'message-expression-infinity',
		group: 'Message',
		case: 'Message expression gives `Infinity` (`1/0`)',
		rule: 'a non-finite number from the message expression fails only its item',
		parameters: { message: "={{ $json.m === 'inf' ? 1 / 0 : $json.m }}" },
		item1: { m: 'inf' },
		requests: 0,
		expect: {
			kind: 'error',
			message: 'The message must be text, but its expression gave Infinity',
			description: 'Pick a text field, or turn the value into text',
		},
		spec: `${SPEC_MESSAGE} Silent; chosen: refuse (no meaningful text).`,
	},
	{
		id: 'message-expression-object',
		group: 'Message',
		case: 'Message expression gives an object',
		rule: 'an object from the message expression fails only its item and says how to make text',
		item1: { m: { order: 7 } },
		requests: 0,
		expect: {
			kind: 'error',
			message: 'The message must be text, but its expression gave an object',
			description:
				'Pick a text field, or turn the value into text, e.g. {{ JSON.stringify($json.order) }}.',
		},
		spec: `${SPEC_MESSAGE} Silent; chosen: refuse rather than guess a text form.`,
	},
	{
		id: 'message-expression-array',
		group: 'Message',
		case: 'Message expression gives an array',
		rule: 'an array from the message expression fails only its item',
		item1: { m: ['a', 'b'] },
		requests: 0,
		expect: {
			kind: 'error',
			message: 'The message must be text, but its expression gave an array',
			description: 'Pick a text field, or turn the value into text',
		},
		spec: `${SPEC_MESSAGE} Silent; chosen: refuse.`,
	},
	{
		id: 'message-expression-bigint',
		group: 'Message',
		case: 'Message expression gives a BigInt',
		rule: 'a BigInt from the message expression is sent as its digits',
		parameters: { message: '={{ $json.ctx ?? $json.m }}' },
		odd: 'bigint',
		requests: 1,
		expect: { kind: 'sent', check: (data) => expect(data.message).toBe('12345678901234567890') },
		note: 'Sent as `"12345678901234567890"`, every digit kept.',
		spec: `${SPEC_MESSAGE} Silent; chosen: the decimal text.`,
	},
	{
		id: 'message-expression-circular',
		group: 'Message',
		case: 'Message expression gives an object that contains itself',
		rule: 'a circular object from the message expression fails only its item and names the parameter',
		parameters: { message: '={{ $json.ctx ?? $json.m }}' },
		odd: 'circular',
		requests: 0,
		expect: {
			kind: 'error',
			message: 'Message: its expression gave an object that contains itself (a circular reference)',
			description: 'Pick the values to send',
		},
		spec: SPEC_MESSAGE,
	},
	{
		id: 'message-lone-surrogate',
		group: 'Message',
		case: 'Message with a lone surrogate (`"a\\ud800b"`)',
		rule: 'a lone surrogate in the message is sent as a JSON escape, signed over those bytes',
		item1: { m: 'a\ud800b' },
		requests: 1,
		expect: {
			kind: 'sent',
			check: (data, request) => {
				expect(data.message).toBe('a\ud800b');
				expect(request.body.toString('utf8')).toContain('"a\\ud800b"');
			},
		},
		note: 'The body carries `\\ud800` (valid UTF-8, the value survives JSON parsing).',
		spec: 'Silent on text that is not valid Unicode; chosen: JSON escape (`JSON.stringify`), never replacement characters.',
	},

	// ── Context (JSON) ──────────────────────────────────────────────────────────────────────
	{
		id: 'context-json-invalid',
		group: 'Context (JSON)',
		case: 'Context (JSON) `{"a":1` (invalid JSON)',
		rule: 'invalid Context (JSON) fails every item with the parser position and sends nothing',
		scope: 'all',
		parameters: { contextMode: 'json', contextJson: '{"a":1' },
		requests: 0,
		expect: {
			kind: 'error',
			message: 'Context (JSON) is not valid JSON: {any}',
			description: 'Check quotes, commas and brackets.',
		},
		spec: SPEC_BODY_OBJECT,
	},
	{
		id: 'context-json-expression-invalid',
		group: 'Context (JSON)',
		case: 'Context (JSON) expression gives invalid JSON text for one item',
		rule: 'invalid JSON text from the context expression fails only its item',
		parameters: { contextMode: 'json', contextJson: '={{ $json.c }}' },
		item1: { c: '{"n": 1,' },
		requests: 0,
		expect: {
			kind: 'error',
			message: 'Context (JSON) is not valid JSON: {any}',
			description: 'Check quotes, commas and brackets.',
		},
		spec: SPEC_BODY_OBJECT,
	},
	{
		id: 'context-json-array',
		group: 'Context (JSON)',
		case: 'Context (JSON) `[1,2]`',
		rule: 'a JSON array as context fails every item',
		scope: 'all',
		parameters: { contextMode: 'json', contextJson: '[1,2]' },
		requests: 0,
		expect: {
			kind: 'error',
			message: 'Context (JSON) must be a JSON object, but it is an array',
			description: 'Wrap the value in an object',
		},
		spec: SPEC_BODY_OBJECT,
	},
	{
		id: 'context-json-expression-array',
		group: 'Context (JSON)',
		case: 'Context (JSON) expression gives an array',
		rule: 'an array from the context expression fails only its item',
		parameters: { contextMode: 'json', contextJson: '={{ $json.c }}' },
		item1: { c: [1, 2] },
		requests: 0,
		expect: {
			kind: 'error',
			message: 'Context (JSON) must be a JSON object, but it is an array',
			description: 'Wrap the value in an object',
		},
		spec: SPEC_BODY_OBJECT,
	},
	{
		id: 'context-json-string',
		group: 'Context (JSON)',
		case: 'Context (JSON) `"text"` (a JSON string)',
		rule: 'a JSON string as context fails every item',
		scope: 'all',
		parameters: { contextMode: 'json', contextJson: '"text"' },
		requests: 0,
		expect: {
			kind: 'error',
			message: 'Context (JSON) must be a JSON object, but it is a string',
			description: 'Wrap the value in an object',
		},
		spec: SPEC_BODY_OBJECT,
	},
	{
		id: 'context-json-expression-string',
		group: 'Context (JSON)',
		case: 'Context (JSON) expression gives plain text (`text`)',
		rule: 'plain text from the context expression is read as JSON text and fails only its item',
		parameters: { contextMode: 'json', contextJson: '={{ $json.c }}' },
		item1: { c: 'text' },
		requests: 0,
		expect: {
			kind: 'error',
			message: 'Context (JSON) is not valid JSON: {any}',
			description: 'Text from expressions must be quoted',
		},
		spec: `${SPEC_BODY_OBJECT} Silent; chosen: text from an expression is JSON text, as typed in the field.`,
	},
	{
		id: 'context-json-null',
		group: 'Context (JSON)',
		case: 'Context (JSON) `null`',
		rule: 'null as context fails every item',
		scope: 'all',
		parameters: { contextMode: 'json', contextJson: 'null' },
		requests: 0,
		expect: {
			kind: 'error',
			message: 'Context (JSON) must be a JSON object, but it is null',
			description: 'Wrap the value in an object',
		},
		spec: `${SPEC_BODY_OBJECT} Silent on null; chosen: refuse (Context None leaves it out).`,
	},
	{
		id: 'context-json-expression-null',
		group: 'Context (JSON)',
		case: 'Context (JSON) expression gives `null`',
		rule: 'null from the context expression fails only its item',
		parameters: { contextMode: 'json', contextJson: '={{ $json.c }}' },
		item1: { c: null },
		requests: 0,
		expect: {
			kind: 'error',
			message: 'Context (JSON) must be a JSON object, but it is null',
			description: 'Wrap the value in an object',
		},
		spec: `${SPEC_BODY_OBJECT} Silent on null; chosen: refuse.`,
	},
	{
		id: 'context-json-number',
		group: 'Context (JSON)',
		case: 'Context (JSON) `42`',
		rule: 'a number as context fails every item',
		scope: 'all',
		parameters: { contextMode: 'json', contextJson: '42' },
		requests: 0,
		expect: {
			kind: 'error',
			message: 'Context (JSON) must be a JSON object, but it is a number',
			description: 'Wrap the value in an object',
		},
		spec: SPEC_BODY_OBJECT,
	},
	{
		id: 'context-json-empty',
		group: 'Context (JSON)',
		case: 'Context (JSON) empty',
		rule: 'an empty Context (JSON) fails every item and says to write an object or choose None',
		scope: 'all',
		parameters: { contextMode: 'json', contextJson: '  ' },
		requests: 0,
		expect: {
			kind: 'error',
			message: 'Context (JSON) is empty',
			description: 'Write a JSON object such as {"orderId": 42}, or set Context to None.',
		},
		spec: `${SPEC_BODY_OBJECT} Silent; chosen: refuse (None is the way to send no context).`,
	},
	{
		id: 'context-json-expression-undefined',
		group: 'Context (JSON)',
		case: 'Context (JSON) expression reads a field the item does not have',
		rule: 'a context expression that gives undefined fails only its item and names the cause',
		parameters: { contextMode: 'json', contextJson: '={{ $json.c }}' },
		item1: { c: undefined },
		requests: 0,
		expect: {
			kind: 'error',
			message: 'Context (JSON) is empty: its expression gave undefined',
			description: 'Check that the field used in Context (JSON) exists on this item',
		},
		spec: SPEC_BODY_OBJECT,
	},
	{
		id: 'context-json-bigint',
		group: 'Context (JSON)',
		case: 'Context (JSON) expression gives a BigInt',
		rule: 'a BigInt as the whole context fails only its item',
		parameters: { contextMode: 'json', contextJson: '={{ $json.ctx ?? $json.c }}' },
		odd: 'bigint',
		requests: 0,
		expect: {
			kind: 'error',
			message: 'Context (JSON) must be a JSON object, but it is a bigint',
			description: 'Wrap the value in an object',
		},
		spec: SPEC_BODY_OBJECT,
	},
	{
		id: 'context-json-nested-bigint',
		group: 'Context (JSON)',
		case: 'Context (JSON) expression gives an object with a BigInt inside',
		rule: 'a BigInt inside the context is sent as a decimal string',
		parameters: { contextMode: 'json', contextJson: '={{ $json.ctx ?? $json.c }}' },
		odd: 'nestedBigint',
		requests: 1,
		expect: {
			kind: 'sent',
			check: (data) => expect(data.context).toEqual({ orderId: 7, total: '12345678901234567890' }),
		},
		note: 'Sent as `"12345678901234567890"` (n8n-workflow serialises BigInt as text; no digit lost).',
		spec: "Silent (context is free-form); chosen: n8n's own BigInt serialisation, the decimal text.",
	},
	{
		id: 'context-json-circular',
		group: 'Context (JSON)',
		case: 'Context (JSON) expression gives an object that contains itself',
		rule: 'a circular context from an expression fails only its item and names the parameter',
		parameters: { contextMode: 'json', contextJson: '={{ $json.ctx ?? $json.c }}' },
		odd: 'circular',
		requests: 0,
		expect: {
			kind: 'error',
			message:
				'Context (JSON): its expression gave an object that contains itself (a circular reference)',
			description: 'Pick the values to send, e.g. with Context → Selected Fields',
		},
		spec: SPEC_BODY_OBJECT,
	},
	{
		id: 'context-json-undefined-values',
		group: 'Context (JSON)',
		case: 'Context with `undefined` values (`{kept: 1, dropped: undefined, list: [1, undefined, 3]}`)',
		rule: 'undefined values are left out of the context, and become null in arrays',
		parameters: { contextMode: 'json', contextJson: '={{ $json.ctx ?? $json.c }}' },
		odd: 'undefinedValues',
		requests: 1,
		expect: {
			kind: 'sent',
			check: (data) => expect(data.context).toEqual({ kept: 1, list: [1, null, 3] }),
		},
		note: 'Sent as `{"kept":1,"list":[1,null,3]}`.',
		spec: 'Silent (JSON has no undefined); chosen: `JSON.stringify` rules.',
	},
	{
		id: 'context-json-date',
		group: 'Context (JSON)',
		case: 'Context with a `Date`',
		rule: 'a Date in the context is sent as ISO 8601 text',
		parameters: { contextMode: 'json', contextJson: '={{ $json.ctx ?? $json.c }}' },
		odd: 'date',
		requests: 1,
		expect: {
			kind: 'sent',
			check: (data) => expect(data.context).toEqual({ when: DATE.toISOString() }),
		},
		note: `Sent as \`"${DATE.toISOString()}"\`.`,
		spec: 'Silent (JSON has no dates); chosen: ISO 8601 in UTC (`Date.toJSON`).',
	},
	{
		id: 'context-json-lone-surrogates',
		group: 'Context (JSON)',
		case: 'Context text with lone surrogates',
		rule: 'lone surrogates in the context are sent as JSON escapes',
		parameters: { contextMode: 'json', contextJson: '={{ $json.ctx ?? $json.c }}' },
		odd: 'loneSurrogate',
		requests: 1,
		expect: {
			kind: 'sent',
			check: (data, request) => {
				expect(data.context).toEqual({ text: 'high \ud800 low \udc00 end' });
				expect(request.body.toString('utf8')).toContain('high \\ud800 low \\udc00 end');
			},
		},
		note: 'Escaped as `\\ud800`, `\\udc00`.',
		spec: 'Silent; chosen: JSON escapes (valid UTF-8 on the wire).',
	},

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
			message: 'Context field "count": {any}',
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
			message:
				'Context Fields: its expression gave an object that contains itself (a circular reference)',
			description: 'Pick the values to send',
		},
		spec: SPEC_BODY_OBJECT,
	},

	// ── Webhook URL (credential) ────────────────────────────────────────────────────────────
	{
		id: 'url-empty',
		group: 'Webhook URL',
		case: 'Webhook URL empty',
		rule: 'an empty webhook URL fails every item and says where to copy it from',
		scope: 'all',
		url: () => '',
		requests: 0,
		expect: { kind: 'error', message: `The webhook URL is empty. ${URL_HINT}`, description: '' },
		spec: SPEC_PATH,
	},
	{
		id: 'url-malformed',
		group: 'Webhook URL',
		case: 'Webhook URL `not a url`',
		rule: 'a malformed webhook URL fails every item and shows the expected shape',
		scope: 'all',
		url: () => 'not a url',
		requests: 0,
		expect: {
			kind: 'error',
			message: `The webhook URL "not a url" is not a valid URL. ${URL_HINT}`,
			description: '',
		},
		spec: SPEC_PATH,
	},
	{
		id: 'url-other-scheme',
		group: 'Webhook URL',
		case: 'Webhook URL with `ftp://`',
		rule: 'a webhook URL that is not http(s) fails every item',
		scope: 'all',
		url: (base) => base.replace(/^https?:/, 'ftp:') + PATH,
		requests: 0,
		expect: {
			kind: 'error',
			message: `The webhook URL must start with https:// (or http://), not ftp://. ${URL_HINT}`,
			description: '',
		},
		spec: '§4: HTTP POST.',
	},
	{
		id: 'url-http',
		group: 'Webhook URL',
		case: 'Webhook URL with `http://`',
		rule: 'an http webhook URL is used as given',
		url: (base) => base + PATH,
		requests: 1,
		expect: { kind: 'sent' },
		note: 'Accepted (local test services); the credential test notes that http:// is not encrypted.',
		spec: 'Silent on the scheme; chosen: https expected, http allowed.',
	},
	{
		id: 'url-https-to-plain-http',
		group: 'Webhook URL',
		case: 'Webhook URL with `https://` where the service speaks plain HTTP',
		rule: 'https to a plain-HTTP service fails every item as a TLS handshake failure, nothing sent',
		scope: 'all',
		url: (base) => base.replace(/^http:/, 'https:') + PATH,
		requests: 0,
		expect: {
			kind: 'error',
			message: 'No TLS connection to {host} could be made (EPROTO)',
			description:
				'so no run was created. Most often the service does not speak https at this address',
		},
		spec: 'Silent; chosen: report the handshake, which precedes any request.',
	},
	{
		id: 'url-wrong-path',
		group: 'Webhook URL',
		case: 'Path `/webhook/cloud/auto-7` (singular)',
		rule: 'a webhook URL without /webhooks/cloud/ fails every item and shows the expected shape',
		scope: 'all',
		url: (base) => `${base}/webhook/cloud/${AUTOMATION_ID}`,
		requests: 0,
		expect: {
			kind: 'error',
			message: `The webhook URL path "/webhook/cloud/${AUTOMATION_ID}" does not contain /webhooks/cloud/. ${URL_HINT}`,
			description: '',
		},
		spec: SPEC_PATH,
	},
	{
		id: 'url-no-id',
		group: 'Webhook URL',
		case: 'Path `/webhooks/cloud/` without an id',
		rule: 'a webhook URL without an automation id fails every item',
		scope: 'all',
		url: (base) => `${base}/webhooks/cloud/`,
		requests: 0,
		expect: {
			kind: 'error',
			message: `The webhook URL has no automation id after /webhooks/cloud/. ${URL_HINT}`,
			description: '',
		},
		spec: SPEC_PATH,
	},
	{
		id: 'url-extra-segment',
		group: 'Webhook URL',
		case: 'Path continues after the id (`…/auto-7/runs`)',
		rule: 'a webhook URL that continues after the id fails every item',
		scope: 'all',
		url: (base) => `${base}${PATH}/runs`,
		requests: 0,
		expect: {
			kind: 'error',
			message: `The webhook URL continues after the automation id ("${AUTOMATION_ID}/runs"): remove the extra path. ${URL_HINT}`,
			description: '',
		},
		spec: '§2: the id is the last path segment.',
	},
	{
		id: 'url-trailing-slash',
		group: 'Webhook URL',
		case: 'Trailing slash (`…/auto-7/`)',
		rule: 'one trailing slash is dropped from the webhook URL',
		url: (base) => `${base}${PATH}/`,
		requests: 1,
		expect: { kind: 'sent' },
		note: `Sent to \`${PATH}\`.`,
		spec: '§2: the id is the last path segment; silent on a trailing slash; chosen: drop one.',
	},
	{
		id: 'url-encoded-slash-in-id',
		group: 'Webhook URL',
		case: 'Encoded characters in the id (`auto%2F7`)',
		rule: 'an automation id with encoded characters fails every item',
		scope: 'all',
		url: (base) => `${base}/webhooks/cloud/auto%2F7`,
		requests: 0,
		expect: {
			kind: 'error',
			message: `The automation id "auto%2F7" contains characters an id cannot have (encoded or reserved characters). ${URL_HINT}`,
			description: '',
		},
		spec: 'Silent on the id alphabet; chosen: unreserved URL characters only.',
	},
	{
		id: 'url-encoded-space-in-id',
		group: 'Webhook URL',
		case: 'Encoded space in the id (`auto%207`)',
		rule: 'an automation id with an encoded space fails every item',
		scope: 'all',
		url: (base) => `${base}/webhooks/cloud/auto%207`,
		requests: 0,
		expect: {
			kind: 'error',
			message: `The automation id "auto%207" contains characters an id cannot have (encoded or reserved characters). ${URL_HINT}`,
			description: '',
		},
		spec: 'Silent; chosen: unreserved URL characters only.',
	},
	{
		id: 'url-query-string',
		group: 'Webhook URL',
		case: 'Query string (`?token=abc`)',
		rule: 'a webhook URL with a query string fails every item',
		scope: 'all',
		url: (base) => `${base}${PATH}?token=abc`,
		requests: 0,
		expect: {
			kind: 'error',
			message: `The webhook URL must not have a query string (the part from "?"): remove it. ${URL_HINT}`,
			description: '',
		},
		spec: 'Silent on a query; chosen: refuse (not part of the path shape).',
	},
	{
		id: 'url-fragment',
		group: 'Webhook URL',
		case: 'Fragment (`#details`)',
		rule: 'a webhook URL with a fragment fails every item',
		scope: 'all',
		url: (base) => `${base}${PATH}#details`,
		requests: 0,
		expect: {
			kind: 'error',
			message: `The webhook URL must not have a fragment (the part from "#"): remove it. ${URL_HINT}`,
			description: '',
		},
		spec: 'Silent; chosen: refuse.',
	},
	{
		id: 'url-user-info',
		group: 'Webhook URL',
		case: 'User name and password in the URL',
		rule: 'a webhook URL with user info fails every item',
		scope: 'all',
		url: (base) => base.replace('://', '://user:pw@') + PATH,
		requests: 0,
		expect: {
			kind: 'error',
			message: `The webhook URL must not contain a user name or password. ${URL_HINT}`,
			description: '',
		},
		spec: '§5: no credential other than the signature is sent.',
	},
	{
		id: 'url-whitespace',
		group: 'Webhook URL',
		case: 'URL pasted with surrounding spaces',
		rule: 'surrounding whitespace of the webhook URL is ignored',
		url: (base) => `  ${base}${PATH}\n`,
		requests: 1,
		expect: { kind: 'sent' },
		note: 'Trimmed.',
		spec: 'Silent; chosen: trim (a URL cannot contain raw spaces).',
	},
	{
		id: 'url-base-path',
		group: 'Webhook URL',
		case: 'A base URL with a path (`…/tenant-a/webhooks/cloud/auto-7`)',
		rule: 'a base URL with its own path is kept',
		url: (base) => `${base}/tenant-a${PATH}`,
		path: `/tenant-a${PATH}`,
		requests: 1,
		expect: { kind: 'sent' },
		note: 'Sent to that path.',
		spec: '§2: `{base_url}` is opaque.',
	},

	// ── Signing secret (credential) ─────────────────────────────────────────────────────────
	{
		id: 'secret-empty',
		group: 'Signing secret',
		case: 'Secret empty',
		rule: 'an empty signing secret fails every item and sends nothing',
		scope: 'all',
		secret: '',
		requests: 0,
		expect: {
			kind: 'error',
			message:
				"The signing secret is empty. Copy it from the automation's Webhook details into the credential.",
			description: '',
		},
		spec: '§5.4: HMAC keyed with the signing secret.',
	},
	{
		id: 'secret-whitespace-only',
		group: 'Signing secret',
		case: 'Secret of spaces only',
		rule: 'a blank signing secret fails every item and sends nothing',
		scope: 'all',
		secret: '   ',
		requests: 0,
		expect: {
			kind: 'error',
			message:
				"The signing secret is only whitespace. Copy it again from the automation's Webhook details.",
			description: '',
		},
		spec: '§5.4.',
	},
	{
		id: 'secret-padded',
		group: 'Signing secret',
		case: 'Secret with surrounding whitespace (`" whsec_… \\n"`)',
		rule: 'a whitespace-padded secret fails every item instead of signing with a trimmed copy',
		scope: 'all',
		secret: ` ${SECRET}\n`,
		requests: 0,
		expect: {
			kind: 'error',
			message:
				'The signing secret starts or ends with whitespace (usually a copy-paste slip). Paste it again into the credential without the surrounding spaces or line breaks.',
			description: '',
		},
		spec: 'Silent; chosen: refuse, never trim silently (see Credential above).',
	},
	{
		id: 'secret-non-ascii',
		group: 'Signing secret',
		case: 'Secret with non-ASCII characters (`sëcret-ключ-🔑`)',
		rule: 'a non-ASCII secret signs with its UTF-8 bytes and verifies independently',
		secret: 'sëcret-ключ-🔑',
		requests: 1,
		expect: { kind: 'sent' },
		note: 'The receiver verifies the HMAC on its own (node:crypto).',
		spec: 'Silent on the key encoding; chosen: UTF-8 bytes (as `createHmac` with a string key).',
	},
	{
		id: 'secret-long',
		group: 'Signing secret',
		case: 'Secret of 200 characters (longer than the HMAC block)',
		rule: 'a secret longer than the HMAC block signs as HMAC prescribes',
		secret: 's'.repeat(200),
		requests: 1,
		expect: { kind: 'sent' },
		spec: '§5.4 (HMAC hashes long keys first).',
	},

	// ── Options ─────────────────────────────────────────────────────────────────────────────
	optionCase(
		'timeout-zero',
		'Timeout 0 (e.g. from an expression)',
		{ timeout: '={{ 0 }}' },
		'Options → Timeout must be a whole number from 1 to 2147483647, got 0',
		'Silent; chosen: refuse, rather than no limit or an instant timeout.',
	),
	optionCase(
		'batch-size-not-a-number',
		'Items per Batch from an expression that is not a number',
		{ batching: { batch: { batchSize: '={{ "abc" }}', batchInterval: 0 } } },
		'Options → Items per Batch must be a whole number from -1 to 2147483647, got "abc"',
		'Silent; chosen: refuse (sending no item, or all at once, would surprise).',
	),
	optionCase(
		'batch-size-zero',
		'Items per Batch 0',
		{ batching: { batch: { batchSize: 0, batchInterval: 0 } } },
		'Options → Items per Batch must be at least 1, or -1 for all items at once, got 0',
		'Silent; chosen: refuse.',
	),
	optionCase(
		'retries-not-a-number',
		'Retries When Not Accepted from an expression that is not a number',
		{ retries: '={{ "many" }}' },
		'Options → Retries When Not Accepted must be a whole number from 0 to 10, got "many"',
		'Silent; chosen: refuse (an unbounded retry count would keep re-sending).',
	),

	// ── Connection ──────────────────────────────────────────────────────────────────────────
	{
		id: 'refused-all',
		group: 'Connection',
		case: 'Connection refused (service down)',
		rule: 'a refused connection fails every item as "no run created"',
		scope: 'all',
		url: () => `http://127.0.0.1:{closedPort}${PATH}`,
		requests: 0,
		expect: {
			kind: 'error',
			message: 'Could not connect to 127.0.0.1:{any}: connection refused',
			description: 'Nothing accepted the connection, so no run was created.',
		},
		spec: 'Silent; chosen: safe to retry (nothing was received).',
	},
	{
		id: 'refused-one',
		group: 'Connection',
		case: 'Connection refused for one item',
		rule: 'a refused connection fails only its item when retries are off',
		fault: { kind: 'refuse', times: 1 },
		requests: 0,
		expect: {
			kind: 'error',
			message: 'Could not connect to {host}: connection refused',
			description: 'Nothing accepted the connection, so no run was created.',
		},
		spec: 'Silent; chosen: no retry unless Retries When Not Accepted is set.',
	},
	{
		id: 'refused-then-accepted',
		group: 'Connection',
		case: 'Connection refused once, Retries When Not Accepted = 2',
		rule: 'a refused connection is re-sent, freshly signed, and the item gets its run',
		parameters: { options: { retries: 2 } },
		fault: { kind: 'refuse', times: 1 },
		requests: 1,
		expect: { kind: 'sent' },
		note: 'Re-sent after 0.5 s with a new timestamp and signature; the service sees one request.',
		spec: 'Silent on retries; chosen: re-send only what provably was not accepted.',
	},
	{
		id: 'dns-not-found',
		group: 'Connection',
		case: 'Host does not resolve (`nowhere.invalid`)',
		rule: 'a host that does not resolve fails every item and names the host',
		scope: 'all',
		url: () => `http://nowhere.invalid:8080${PATH}`,
		requests: 0,
		expect: {
			kind: 'error',
			message: 'The host nowhere.invalid:8080 could not be found (DNS ENOTFOUND)',
			description: "Check the host name in the credential's webhook URL",
		},
		spec: 'Silent; chosen: not re-sent (nothing to gain until the name is fixed).',
	},
	{
		id: 'dns-temporary-failure',
		group: 'Connection',
		case: 'DNS lookup fails temporarily (EAI_AGAIN) for one item',
		rule: 'a temporary DNS failure fails only its item and names the code',
		fault: { kind: 'dns', code: 'EAI_AGAIN', times: 1 },
		requests: 0,
		expect: {
			kind: 'error',
			message: 'The host {host} could not be found (DNS EAI_AGAIN)',
			description: 'and the DNS of the machine running n8n',
		},
		spec: 'Silent; chosen: not re-sent.',
	},
	{
		id: 'reset-before-body',
		group: 'Connection',
		case: 'Connection reset before the body was read',
		rule: 'a reset before the body arrives fails only its item as "may have run"',
		fault: { kind: 'resetBeforeBody' },
		requests: 0,
		expect: {
			kind: 'error',
			message:
				"The connection to {host} was closed before the service's answer was complete (ECONNRESET)",
			description: MAY_HAVE_RUN,
		},
		note: `The node cannot tell this from a reset after the body. ${NEVER_RESENT}`,
		spec: 'Silent; chosen: treat as "may have run", never re-send.',
	},
	{
		id: 'reset-after-body',
		group: 'Connection',
		case: 'Connection reset after the body was read, no answer',
		rule: 'a reset after the body arrived fails only its item as "may have run" and is not re-sent',
		parameters: { options: { retries: 2 } },
		fault: { kind: 'resetAfterBody' },
		requests: 1,
		expect: {
			kind: 'error',
			message:
				"The connection to {host} was closed before the service's answer was complete (ECONNRESET)",
			description: MAY_HAVE_RUN,
		},
		note: NEVER_RESENT,
		spec: 'Silent; chosen: "may have run" (the service got the whole request).',
	},
	{
		id: 'reset-mid-answer',
		group: 'Connection',
		case: '200 and part of the body, then the connection is reset',
		rule: 'an answer cut off midway fails only its item as "may have run"',
		fault: { kind: 'resetMidAnswer' },
		requests: 1,
		expect: {
			kind: 'error',
			message:
				"The connection to {host} was closed before the service's answer was complete ({any})",
			description: MAY_HAVE_RUN,
		},
		note: 'The code is ERR_BAD_RESPONSE on Node 20, ECONNRESET on Node 24. The 200 arrived, so the run probably exists.',
		spec: 'Silent; chosen: "may have run" (never re-sent).',
	},

	// ── Timeouts ────────────────────────────────────────────────────────────────────────────
	{
		id: 'slow-headers',
		group: 'Timeouts',
		case: 'Headers come after 1 s, Timeout = 300 ms',
		rule: 'an answer slower than the timeout fails only its item as "may have run"',
		parameters: { options: { timeout: 300 } },
		fault: { kind: 'slowHeaders', ms: 1000 },
		requests: 1,
		expect: {
			kind: 'error',
			message: 'The service did not answer within 300 ms',
			description: `${MAY_HAVE_RUN} Raise Options → Timeout if the service is slow.`,
		},
		spec: 'Silent; chosen: "may have run", never re-sent.',
	},
	{
		id: 'trickled-body',
		group: 'Timeouts',
		case: '200 at once, then the body one byte per 50 ms for 1.5 s, Timeout = 300 ms',
		rule: 'a body trickled past the timeout fails only its item at the timeout',
		parameters: { options: { timeout: 300 } },
		fault: { kind: 'trickle', everyMs: 50, totalMs: 1500 },
		requests: 1,
		expect: {
			kind: 'error',
			message: 'The service did not answer within 300 ms',
			description: `${MAY_HAVE_RUN} Raise Options → Timeout if the service is slow.`,
		},
		note: 'Timeout covers headers and body.',
		spec: 'Silent; chosen: Timeout bounds the whole answer.',
	},

	// ── Answers of the service ──────────────────────────────────────────────────────────────
	redirect(301),
	redirect(302),
	redirect(307),
	redirect(308),
	skewed(401, 10 * 60_000, 'behind'),
	skewed(403, -10 * 60_000, 'ahead of'),
	{
		id: 'signature-rejected-no-date',
		group: 'Answers of the service',
		case: '401 without a `Date` header',
		rule: 'a 401 without a Date header points at the secret and the clock',
		fault: answer(401, undefined, '', true),
		requests: 1,
		expect: {
			kind: 'error',
			message: 'The service rejected the signature (401)',
			description:
				"Check that the credential's signing secret is the one shown in this automation's Webhook details, and that this machine's clock is correct.",
			httpCode: '401',
		},
		note: 'The description points at the secret and the clock.',
		spec: `${SPEC_ERRORS_SILENT}; chosen: 401/403 = signature rejected.`,
	},
	{
		id: 'signature-rejected-clocks-agree',
		group: 'Answers of the service',
		case: '401 with a `Date` header that agrees with this machine',
		rule: 'a 401 with agreeing clocks points at the signing secret',
		fault: answer(401, () => ({ Date: new Date().toUTCString() })),
		requests: 1,
		expect: {
			kind: 'error',
			message: 'The service rejected the signature (401)',
			description:
				"the clocks agree, so the signing secret is the likely cause. Copy it again from this automation's Webhook details into the credential.",
			httpCode: '401',
		},
		note: 'The description says the clocks agree, so the secret is the likely cause.',
		spec: `${SPEC_ERRORS_SILENT}; chosen: 401/403 = signature rejected.`,
	},
	{
		id: 'not-found',
		group: 'Answers of the service',
		case: '404',
		rule: 'a 404 fails only its item and names the automation id',
		fault: answer(
			404,
			() => ({ 'Content-Type': 'application/json' }),
			'{"error":"unknown_automation"}',
		),
		requests: 1,
		expect: {
			kind: 'error',
			message: `No automation found for id "${AUTOMATION_ID}" (404)`,
			description: "Check the automation id at the end of the credential's webhook URL.",
			httpCode: '404',
		},
		spec: `${SPEC_ERRORS_SILENT}; chosen: 404 = unknown automation id (§2: the id is in the path).`,
	},
	{
		id: 'too-large',
		group: 'Answers of the service',
		case: '413',
		rule: 'a 413 fails only its item and gives the body size',
		fault: answer(413),
		requests: 1,
		expect: {
			kind: 'error',
			message: `The request body is too large for the service (413): ${ITEM1_BYTES} bytes`,
			description: 'Send less context for this item',
			httpCode: '413',
		},
		spec: 'Silent (§8: body size limits not shown).',
	},
	{
		id: 'rate-limited',
		group: 'Answers of the service',
		case: '429 with `Retry-After: 7`, retries off',
		rule: 'a 429 fails only its item and gives Retry-After',
		fault: answer(429, () => ({ 'Retry-After': '7' })),
		requests: 1,
		expect: {
			kind: 'error',
			message: 'Rate limited by the service (429), retry after 7 s',
			description: 'Options → Retries When Not Accepted re-sends rate-limited items.',
			httpCode: '429',
		},
		spec: 'Silent (§8: rate limits not shown).',
	},
	{
		id: 'rate-limited-then-accepted',
		group: 'Answers of the service',
		case: '429 with `Retry-After: 1`, then 202; Retries When Not Accepted = 2',
		rule: 'a 429 is re-sent after Retry-After with a fresh signature and the item gets its run',
		parameters: { options: { retries: 2 } },
		fault: {
			kind: 'answers',
			list: [
				{ status: 429, headers: () => ({ 'Retry-After': '1' }) },
				{
					status: 202,
					headers: () => ({ 'Content-Type': 'application/json' }),
					body: '{"runId":"after-429"}',
				},
			],
		},
		requests: 2,
		expect: { kind: 'sent', response: { runId: 'after-429' } },
		note: 'The service sees 2 requests for the item: the first answered 429 (not accepted), the second freshly signed.',
		spec: 'Silent; chosen: a 429 provably did not create a run, so it may be re-sent.',
	},
	{
		id: 'rate-limited-too-long',
		group: 'Answers of the service',
		case: '429 with `Retry-After: 120`, Retries When Not Accepted = 2',
		rule: 'a 429 asking for more than 60 s fails at once instead of waiting',
		parameters: { options: { retries: 2 } },
		fault: answer(429, () => ({ 'Retry-After': '120' })),
		requests: 1,
		expect: {
			kind: 'error',
			message: 'Rate limited by the service (429), retry after 120 s',
			description: 'lower Options → Batching → Items per Batch',
			httpCode: '429',
		},
		spec: 'Silent; chosen: wait at most 60 s.',
	},
	{
		id: 'bad-request',
		group: 'Answers of the service',
		case: '400',
		rule: 'a 400 fails only its item and passes on what the service said',
		fault: answer(400, undefined, 'message is required'),
		requests: 1,
		expect: {
			kind: 'error',
			message: 'The service rejected the request body (400)',
			description:
				'Check the message and context of this item. The service said: message is required',
			httpCode: '400',
		},
		spec: `${SPEC_ERRORS_SILENT}; chosen: 400/422 = body rejected, never re-sent.`,
	},
	{
		id: 'other-4xx',
		group: 'Answers of the service',
		case: '418',
		rule: 'any other 4xx fails only its item',
		fault: answer(418),
		requests: 1,
		expect: {
			kind: 'error',
			message: 'The service refused the request (418)',
			description: "Check the credential's webhook URL and this item's data.",
			httpCode: '418',
		},
		spec: `${SPEC_ERRORS_SILENT}; chosen: reported with its status, never re-sent.`,
	},
	serverError(500),
	serverError(502),
	serverError(503),
	{
		id: 'ok-text-body',
		group: 'Answers of the service',
		case: '200 with a text body',
		rule: 'a 2xx with a text body is accepted and the text passed on',
		fault: answer(200, () => ({ 'Content-Type': 'text/plain' }), 'queued'),
		requests: 1,
		expect: { kind: 'sent', statusCode: 200, response: 'queued' },
		note: '`response` is `"queued"`.',
		spec: 'Silent (§4: response not shown); chosen: any 2xx is accepted, the body passed on.',
	},
	{
		id: 'ok-empty-body',
		group: 'Answers of the service',
		case: '200 with an empty body',
		rule: 'a 2xx with an empty body is accepted',
		fault: answer(200),
		requests: 1,
		expect: { kind: 'sent', statusCode: 200, response: '' },
		note: '`response` is `""`.',
		spec: 'Silent; chosen: accepted.',
	},
	{
		id: 'ok-broken-json',
		group: 'Answers of the service',
		case: '200 claiming JSON with a body that is not JSON',
		rule: 'a 2xx whose JSON does not parse is accepted and passed on as text',
		fault: answer(200, () => ({ 'Content-Type': 'application/json' }), '{"runId": '),
		requests: 1,
		expect: { kind: 'sent', statusCode: 200, response: '{"runId": ' },
		note: 'The run exists; failing the item would invite a duplicate.',
		spec: 'Silent; chosen: accepted, body as text.',
	},
	{
		id: 'no-content',
		group: 'Answers of the service',
		case: '204',
		rule: 'a 204 is accepted',
		fault: answer(204),
		requests: 1,
		expect: { kind: 'sent', statusCode: 204, response: '' },
		spec: 'Silent; chosen: accepted.',
	},

	// ── TLS ─────────────────────────────────────────────────────────────────────────────────
	{
		id: 'tls-self-signed',
		group: 'TLS',
		case: 'Self-signed certificate',
		rule: 'a self-signed certificate fails every item and suggests Ignore SSL Issues',
		scope: 'all',
		tls: true,
		requests: 0,
		expect: {
			kind: 'error',
			message: 'The TLS certificate of {host} is not trusted (DEPTH_ZERO_SELF_SIGNED_CERT)',
			description: 'or turn on Options → Ignore SSL Issues (Insecure)',
		},
		spec: 'Silent; chosen: validate certificates unless told not to.',
	},
	{
		id: 'tls-self-signed-ignored',
		group: 'TLS',
		case: 'Self-signed certificate with Ignore SSL Issues',
		rule: 'with Ignore SSL Issues a self-signed certificate is accepted',
		tls: true,
		parameters: { options: { allowUnauthorizedCerts: true } },
		requests: 1,
		expect: { kind: 'sent' },
		spec: "Silent; chosen: the HTTP Request node's option.",
	},
	{
		id: 'tls-plain-http-to-tls',
		group: 'TLS',
		case: '`http://` to a service that speaks TLS',
		rule: 'plain HTTP to a TLS service fails every item as "may have run"',
		scope: 'all',
		tls: true,
		url: (base) => base.replace(/^https:/, 'http:') + PATH,
		requests: 0,
		expect: {
			kind: 'error',
			message:
				"The connection to {host} was closed before the service's answer was complete (ECONNRESET)",
			description: MAY_HAVE_RUN,
		},
		note: 'The node cannot tell why the service hung up.',
		spec: 'Silent.',
	},

	// ── Stopping and retrying ───────────────────────────────────────────────────────────────
	{
		id: 'stopped-mid-batch',
		group: 'Stopping and retrying',
		case: 'Workflow stopped while a batch (items 0 and 1, 2 per batch) is in flight',
		rule: 'stopping aborts the requests in flight and sends no further batch',
		custom: true,
		requests: 1,
		expect: { kind: 'error', message: 'The execution was cancelled manually', description: '' },
		note: 'The run ends as canceled at once: the requests in flight are aborted (items 0 and 1 were received, so their runs may exist), item 2 is never sent.',
		spec: 'Silent; chosen: as the n8n Stop button does for every node.',
	},
	{
		id: 'stopped-during-retry-wait',
		group: 'Stopping and retrying',
		case: 'Workflow stopped while waiting out `Retry-After: 30` for item 0 (Retries When Not Accepted = 2)',
		rule: 'stopping during a Retry-After wait ends at once and sends nothing more',
		custom: true,
		requests: 1,
		expect: { kind: 'error', message: 'The execution was cancelled manually', description: '' },
		note: 'The run ends as canceled at once; nothing more is sent (the 429 created no run).',
		spec: 'Silent.',
	},
	{
		id: 'retry-on-fail-keeps-accepted',
		group: 'Stopping and retrying',
		case: "n8n's Retry On Fail with a 500 for item 1 (Continue On Fail off)",
		rule: "n8n's Retry On Fail sends again only the items the service has not accepted",
		custom: true,
		requests: 2,
		expect: { kind: 'error', message: '', description: '' },
		note: "The service gets items 0, 1, 1, 2: item 0, accepted by the first attempt, is passed on from it and not sent again; item 1, whose 500 leaves its run uncertain, is sent again by n8n's retry, freshly signed (that is what the setting is for).",
		spec: '§6: each accepted request creates a run; chosen: a retry of the node never re-sends an accepted item.',
	},
];

// ── README rendering ────────────────────────────────────────────────────────────────────────

export const README_START = '<!-- fault-matrix:start -->';
export const README_END = '<!-- fault-matrix:end -->';

function cell(text: string): string {
	return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function shown(template: string): string {
	return template
		.replace(` ${URL_HINT}`, ' Expected … (the shape, and where to copy the URL)')
		.replace(/\{host\}/g, '<host>')
		.replace(/\{any\}/g, '…');
}

function quoted(message: string): string {
	const text = shown(message);
	return /[.!?]$/.test(text) ? `“${text}”` : `“${text}”.`;
}

function behaviour(c: MatrixCase): string {
	const outcome = c.expect;
	let text: string;
	if (c.custom) text = c.note ?? '';
	else if (outcome.kind === 'notStarted')
		text = `n8n does not start the workflow: ${quoted(outcome.message)}`;
	else if (outcome.kind === 'sent')
		text = `Sent; output \`statusCode\` ${outcome.statusCode ?? 202}.`;
	else {
		const code = outcome.httpCode ? ` (\`httpCode\` ${outcome.httpCode})` : '';
		text = `${c.scope === 'all' ? 'Every item fails' : 'The item fails'}${code}: ${quoted(outcome.message)}`;
	}
	if (!c.custom && c.note) text += ` ${c.note}`;
	return text;
}

/** The README block between the markers (markers included). */
export function renderMatrix(cases: MatrixCase[] = CASES): string {
	const inputs = cases.filter((c) => INPUT_GROUPS.includes(c.group)).length;
	const lines = [
		README_START,
		'<!-- Generated from test/support/faultMatrix.ts; `UPDATE_README_MATRIX=1 npx vitest run test/faults.matrix.test.ts` rewrites it. -->',
		'',
		`**Fault and bad-input matrix** (${inputs} input cases, ${cases.length - inputs} faults), each proved by a test in`,
		'`test/faults.*.test.ts` in n8n\'s engine against a local receiver. Unless a case says "every item", only',
		'the middle of three items is affected; each case runs with On Error set to stop, to continue, and to',
		'continue on the error output (the Stopping cases run as described):',
		'',
		'- **Other items are unaffected**: with On Error → Continue each item gets its own output, paired',
		'  with its input item (`pairedItem`); the failing item carries `error` and `details` (`itemIndex`,',
		"  `description`, `httpCode`; on the error output n8n adds the input item's fields). Without Continue",
		'  On Fail the node stops at the failing item: items before it were sent (their runs exist, their',
		'  output is lost with the error), later items are not sent (with Batching, the rest of the failing',
		'  batch was already sent).',
		'- **Requests** is how many requests of the affected item reached the service. The node repeats a',
		'  request only when the service provably did not take the first one (connection refused, or a 429,',
		'  with Retries When Not Accepted), and every repeat carries a fresh timestamp and signature. With',
		"  n8n's Retry On Fail, items already accepted are passed on from the earlier attempt (last row).",
		'- **No secret in sight**: neither the signing secret nor any sent signature appears in any output item,',
		'  error message, description or anything n8n or the node logged, in every case below.',
		'- **Spec** names the rule of the interface specification, or says it is silent and what was chosen.',
	];
	const groups = [...new Set(cases.map((c) => c.group))];
	for (const group of groups) {
		lines.push(
			'',
			`**${group}**`,
			'',
			'| Case | What happens | Requests | Spec |',
			'| --- | --- | --- | --- |',
		);
		for (const c of cases.filter((x) => x.group === group)) {
			lines.push(`| ${cell(c.case)} | ${cell(behaviour(c))} | ${c.requests} | ${cell(c.spec)} |`);
		}
	}
	lines.push('', README_END);
	return lines.join('\n');
}
