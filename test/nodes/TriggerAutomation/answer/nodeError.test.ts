/**
 * The description `describe` puts on each error the node makes, from every classifier's failures
 * (serviceAnswer, noAnswer, requestBody) and the fault matrix's: n8n's editor shows it whole.
 */
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError, UserError } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { editorText } from '../../../../nodes/TriggerAutomation/answer/failure';
import type {
	Failure,
	RequestInfo,
	TriggerError,
} from '../../../../nodes/TriggerAutomation/answer/failure';
import {
	TLS_CODES,
	failureFromError,
	timeoutFailure,
} from '../../../../nodes/TriggerAutomation/answer/noAnswer';
import {
	describe as describeFailure,
	retryHint,
	stoppingError,
	waitHint,
} from '../../../../nodes/TriggerAutomation/answer/nodeError';
import {
	contextFromFields,
	contextFromJson,
	messageText,
	serializeBody,
} from '../../../../nodes/TriggerAutomation/request/requestBody';
import { rateLimitAdvice } from '../../../../nodes/TriggerAutomation/answer/rateLimited';
import { failureFromAnswer } from '../../../../nodes/TriggerAutomation/answer/serviceAnswer';
import { MARKUP, editorShows, withLinksAsText } from '../../../support/editorRendering';
import { CASES } from '../../../support/faultMatrix';

const MARKUP_SHOWN = editorText(MARKUP);

const NOW = Date.parse('2026-11-21T10:00:00Z');
/** The node an error that stops the execution names. */
const node = {
	id: '1',
	name: 'Trigger Automation',
	type: 'x.triggerAutomation',
	typeVersion: 1,
	position: [0, 0] as [number, number],
	parameters: {},
};
const REQUEST: RequestInfo = {
	url: 'http://127.0.0.1:5678/webhooks/cloud/auto-7',
	automationId: 'auto-7',
	signatureTimestamp: NOW,
	bodyBytes: 42,
	timeoutMs: 30_000,
};

const answer = (status: number, body: string, headers: Record<string, string> = {}) =>
	failureFromAnswer({ statusCode: status, headers, body: Buffer.from(body) }, REQUEST, NOW);

const BODIES: Array<[string, string]> = [
	['a JSON message', JSON.stringify({ error: 'invalid_signature', message: MARKUP })],
	['a JSON error.message', JSON.stringify({ error: { code: 7, message: MARKUP } })],
	['a JSON string', JSON.stringify(MARKUP)],
	['text', `  ${MARKUP}\n`],
];

const DATES: Array<[string, Record<string, string>]> = [
	['no Date header', {}],
	['clocks that agree', { date: new Date(NOW).toUTCString() }],
	['a Date 10 minutes ahead', { date: new Date(NOW + 600_000).toUTCString() }],
	['a Date 90 s behind', { date: new Date(NOW - 90_000).toUTCString() }],
];

const STATUSES = [400, 401, 403, 404, 405, 409, 413, 418, 422, 429, 500, 502, 503, 504];

/** Every description the classifiers make, as the node puts it on its error. */
function descriptionsFromAnswers(): Array<[string, string, Failure]> {
	const out: Array<[string, string, Failure]> = [];
	for (const status of [301, 302, 307, 308]) {
		const failure = answer(status, MARKUP, { location: 'http://127.0.0.1:5678/elsewhere' })!;
		out.push([`${status}`, describeFailure(failure)!, failure]);
	}
	for (const status of STATUSES) {
		for (const [bodyName, body] of BODIES) {
			const dates = status === 401 || status === 403 ? DATES : DATES.slice(0, 1);
			for (const [dateName, headers] of dates) {
				const failure = answer(status, body, { ...headers, 'retry-after': '7' })!;
				out.push([`${status}, ${bodyName}, ${dateName}`, describeFailure(failure)!, failure]);
			}
		}
	}
	return out;
}

const CODES = [
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EPROTO',
	'ERR_SSL_WRONG_VERSION_NUMBER',
	...TLS_CODES,
	'ECONNABORTED',
	'ETIMEDOUT',
	'ESOCKETTIMEDOUT',
	'ECONNRESET',
	'EPIPE',
	'ERR_SOCKET_CLOSED',
	'ERR_BAD_RESPONSE',
	'EHOSTUNREACH',
];

function descriptionsFromErrors(): Array<[string, string | undefined]> {
	const coded = (code: string) => Object.assign(new Error('request failed'), { code });
	return [
		...CODES.map((code): [string, string | undefined] => [
			code,
			describeFailure(failureFromError(new Error('wrapped', { cause: coded(code) }), REQUEST)),
		]),
		['no code', describeFailure(failureFromError(new Error('odd'), REQUEST))],
		['timeout', describeFailure(timeoutFailure(REQUEST))],
		[
			"n8n's refusal",
			describeFailure(failureFromError(new UserError('Blocked', { description: MARKUP }), REQUEST)),
		],
		[
			"n8n's refusal without a description",
			describeFailure(failureFromError(new UserError('Blocked'), REQUEST)),
		],
	];
}

/** What a bad item or parameter is told, from the functions that check them before sending. */
function descriptionsFromInputs(): Array<[string, string | undefined]> {
	const circular: IDataObject = {};
	circular.self = circular;
	const checks: Array<[string, () => unknown]> = [
		['empty message', () => messageText(' ')],
		['null message', () => messageText(null)],
		['object message', () => messageText({ a: 1 })],
		['undefined context', () => contextFromJson(undefined)],
		['empty context', () => contextFromJson('')],
		['context not JSON', () => contextFromJson('{"a": <b>}')],
		['context an array', () => contextFromJson('[1]')],
		[
			'field without a name',
			() => contextFromFields([{ id: '1', name: '', value: 1, type: 'number' }]),
		],
		[
			'field twice',
			() =>
				contextFromFields([
					{ id: '1', name: '<a>', value: '1', type: 'string' },
					{ id: '2', name: '<a>', value: '2', type: 'string' },
				]),
		],
		[
			'field of the wrong type',
			() => contextFromFields([{ id: '1', name: 'n', value: 'x', type: 'number' }]),
		],
		['circular context', () => serializeBody('m', circular)],
	];
	return checks.map(([name, check]) => {
		try {
			check();
		} catch (error) {
			return [name, describeFailure((error as TriggerError).failure)];
		}
		throw new Error(`${name}: no error`);
	});
}

/** The matrix's expected descriptions (parts of the whole), with its placeholders filled in. */
const MATRIX_DESCRIPTIONS = CASES.flatMap((c) =>
	c.expect.kind === 'error' && c.expect.description !== ''
		? [[c.id, c.expect.description.replace(/\{host\}/g, '127.0.0.1:5678').replace(/\{any\}/g, '')]]
		: [],
);

describe('every description the node makes is shown whole by the editor', () => {
	it.each(descriptionsFromAnswers())('%s', (_, description, failure) => {
		expect(editorShows(description)).toBe(withLinksAsText(description));
		// What the service said is quoted (as plain text), except for a redirect, which is not read.
		if (failure.httpCode?.startsWith('3')) expect(description).not.toContain('The service said');
		else expect(description).toContain(`The service said: ${MARKUP_SHOWN}`);
	});

	it.each(descriptionsFromErrors())('%s', (name, description) => {
		expect(description).toBeDefined();
		expect(editorShows(description!)).toBe(withLinksAsText(description!));
		if (name === "n8n's refusal") expect(description).toContain(MARKUP_SHOWN);
	});

	it.each(descriptionsFromInputs())('%s', (_, description) => {
		expect(description).toBeDefined();
		expect(editorShows(description!)).toBe(withLinksAsText(description!));
	});

	it.each(MATRIX_DESCRIPTIONS)("the fault matrix's %s", (_, description) => {
		expect(editorShows(description)).toBe(withLinksAsText(description));
	});
});

describe('the hint after a run in which the service turned requests away', () => {
	it('is absent when it turned none away', () => {
		expect(waitHint({ turnedAway: 0, resent: 0, waitedMs: 0 }, 0, 20)).toBeUndefined();
		expect(waitHint({ turnedAway: 0, resent: 0, waitedMs: 0 }, 3, 20)).toBeUndefined();
	});

	it('says how many were turned away, how long the node waited, and that every item was accepted once', () => {
		expect(waitHint({ turnedAway: 12, resent: 12, waitedMs: 23_600 }, 0, 20)).toEqual({
			type: 'info',
			location: 'outputPane',
			message:
				'The service turned away 12 requests without creating a run; the node waited 24 s in all and sent them again. All 20 items were accepted, each once.',
		});
		expect(waitHint({ turnedAway: 1, resent: 1, waitedMs: 400 }, 0, 1)?.message).toBe(
			'The service turned away 1 request without creating a run; the node waited under 1 s in all and sent it again. The item was accepted, once.',
		);
	});

	it('with items that failed: how many were accepted and how many failed, as a warning', () => {
		expect(waitHint({ turnedAway: 6, resent: 4, waitedMs: 3_000 }, 1, 4)).toEqual({
			type: 'warning',
			location: 'outputPane',
			message:
				'The service turned away 6 requests without creating a run; the node waited 3 s in all and sent 4 of them again. 3 of 4 items were accepted, each once; 1 failed: its error says why.',
		});
		expect(waitHint({ turnedAway: 2, resent: 0, waitedMs: 0 }, 2, 2)?.message).toBe(
			'The service turned away 2 requests without creating a run; the node sent none of them again. All 2 items failed: their errors say why.',
		);
	});
});

describe("what every execution that is n8n's Retry of another says", () => {
	const RETRY_NOTE =
		'if execution 17 was retried before, the items that earlier Retry accepted were sent again, as n8n tells a Retry nothing of the others; to avoid that, retry only the latest execution of a chain of Retries';

	it('above its output, in one sentence, naming the execution it retries', () => {
		expect(retryHint(['12', '17'])).toEqual({
			type: 'info',
			location: 'outputPane',
			message: `This execution is n8n's Retry of execution 17: ${RETRY_NOTE}.`,
		});
	});

	it('the same when the execution it retries never ran this node, which n8n does not name', () => {
		expect(retryHint([]).message).toBe(
			"This execution is n8n's Retry of another: if that execution was retried before, the items that earlier Retry accepted were sent again, as n8n tells a Retry nothing of the others; to avoid that, retry only the latest execution of a chain of Retries.",
		);
	});

	it('in the error that stops it, ending with which execution to retry', () => {
		const stopped = (retryOf: string[], isRetry: boolean) => {
			const error = new NodeOperationError(node, 'The message is empty');
			error.context.code = 'bad_input';
			return stoppingError(error, undefined, {
				itemIndex: 0,
				total: 1,
				accepted: 0,
				retryOf,
				isRetry,
			}).description;
		};
		const nothingSent =
			'Nothing was sent, so no run was created: once this is fixed, run the item again.';
		expect(stopped(['17'], true)).toBe(
			`${nothingSent} This execution is n8n's Retry of execution 17: ${RETRY_NOTE}: this one, not 17. Failure code: \`bad_input\`.`,
		);
		expect(stopped([], true)).toMatch(
			/^Nothing was sent, .* This execution is n8n's Retry of another: .*chain of Retries: this one\. Failure code/,
		);
		expect(stopped([], false)).toBe(`${nothingSent} Failure code: \`bad_input\`.`);
	});
});

/**
 * Where a description's first clause ends (a sentence, or up to a colon that goes on to why): by
 * the node's rule, what to do comes first.
 */
function adviceEnd(description: string): number {
	const end = description.search(/[.!?:](\s|$)/);
	return end === -1 ? description.length : end + 1;
}

/** The description of `error` as it stops n8n's Retry of a Retry, 480 of 500 items accepted. */
const stoppedRetryOfRetry = (error: NodeOperationError) =>
	stoppingError(error, undefined, {
		itemIndex: 41,
		total: 500,
		accepted: 480,
		retryOf: ['17', '18'],
		isRetry: true,
	}).description!;

describe('every error says what to do within its first 300 characters', () => {
	const turnedAway = {
		sending: 'batches',
		atOnce: 50,
		retries: 5,
		turnedAway: 6,
		turnedAwayForMs: 5_400,
	} as const;
	const described: Array<[string, string | undefined]> = [
		...descriptionsFromAnswers().map(([name, , failure]): [string, string | undefined] => [
			name,
			describeFailure(rateLimitAdvice(failure, turnedAway)),
		]),
		...descriptionsFromErrors(),
		...descriptionsFromInputs(),
	];

	it.each(described)('%s', (_, description) => {
		expect(adviceEnd(description!)).toBeLessThanOrEqual(300);
	});

	it('bad input with no description of its own (the message names it): nothing was sent, run it again once fixed, before the notes of a Retry', () => {
		const error = new NodeOperationError(node, "Can't get data for expression");
		error.context.code = 'bad_input';
		const stopped = stoppedRetryOfRetry(error);
		expect(stopped).toMatch(
			/^Nothing was sent, so no run was created: once this is fixed, run the item again\. Item 41 is/,
		);
	});

	it.each(described)(
		"%s, when it stops n8n's Retry of a Retry with other items accepted",
		(_, description) => {
			const error = new NodeOperationError(node, 'failed', { description });
			error.context.code = 'may_have_run';
			const stopped = stoppedRetryOfRetry(error);
			expect(stopped.startsWith(description!)).toBe(true);
			expect(adviceEnd(stopped)).toBeLessThanOrEqual(300);
		},
	);
});
