/**
 * What the matrix's cases share: the receiver's automation, item 1's body, the texts several cases
 * repeat, and builders for the families of cases (redirects, server errors, skewed clocks, options).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { expect } from 'vitest';

import type { AnswerSpec, Fault, MatrixCase } from './types';

export const SECRET = 'whsec_matrix_9f8e7d6c5b4a';
export const AUTOMATION_ID = 'auto-7';
export const PATH = `/webhooks/cloud/${AUTOMATION_ID}`;
export const HOST = 'svc.invalid';

export function baseItem(n: number): IDataObject {
	return { m: `item ${n}`, c: { n }, k: 'second' };
}

export const ITEM1_BYTES = Buffer.byteLength(JSON.stringify({ data: { message: 'item 1' } }));
export const NEVER_RESENT = 'Never re-sent by the node, even with Retries When Not Accepted set.';
export const MAY_HAVE_RUN =
	"The run may or may not have been created: check the automation's run history before running this item again.";
export const URL_HINT =
	"Expected {base_url}/webhooks/cloud/<automation_id>. Copy the webhook URL from the automation's Webhook details in the desktop app.";
export const SPEC_BODY_OBJECT = '§2, §4: `data.context` is an object (free-form).';
export const SPEC_MESSAGE = '§2: `data.message` is a required string.';
export const SPEC_PATH = '§2, §4: path `{base_url}/webhooks/cloud/<automation_id>`.';
export const SPEC_ERRORS_SILENT = 'Silent (§7: error statuses not shown)';

export const sentContext = (expected: unknown) => (data: { context?: IDataObject }) =>
	expect(data.context?.ctx).toEqual(expected);

export const answer = (
	status: number,
	headers?: AnswerSpec['headers'],
	body?: string,
	noDate?: boolean,
): Fault => ({
	kind: 'answers',
	list: [{ status, headers, body, noDate }],
});

export const redirect = (status: number): MatrixCase => ({
	id: `redirect-${status}`,
	group: 'Answers of the service',
	case: `${status} with a Location (pointing back at the same service)`,
	rule: `a ${status} redirect is reported with its Location and never followed`,
	fault: answer(status, (base) => ({ Location: `${base}/elsewhere` })),
	requests: 1,
	expect: {
		kind: 'error',
		code: 'redirected',
		message: `The service answered with a redirect (${status}) to http://{host}/elsewhere`,
		description:
			"If the automation's webhook URL has changed, copy the new one from its Webhook details into the credential. Redirects are never followed",
		httpCode: String(status),
	},
	note: 'Nothing is sent to the Location (a signed request must not go elsewhere).',
	spec: 'Silent on redirects; chosen: never follow (§5.8: the signature must only reach the automation).',
});

export const serverError = (status: number): MatrixCase => ({
	id: `server-error-${status}`,
	group: 'Answers of the service',
	case: `${status} (with Retries When Not Accepted = 2)`,
	rule: `a ${status} fails the item as "may have run" and is never re-sent`,
	parameters: { options: { retries: 2 } },
	fault: answer(status, undefined, 'upstream trouble'),
	requests: 1,
	expect: {
		kind: 'error',
		code: 'may_have_run',
		message: `The service failed to handle the request (${status})`,
		// A 503 may also be a proxy's rate limiter: its description says so first (serviceAnswer.ts).
		description: `${MAY_HAVE_RUN} ${status === 503 ? 'If a proxy or gateway in front of the service limits its rate, have it answer 429{any}' : ''}The service said: upstream trouble`,
		httpCode: String(status),
	},
	note: NEVER_RESENT,
	spec: `${SPEC_ERRORS_SILENT}; chosen: a 5xx may have created the run, so it is not re-sent.`,
});

export const skewed = (status: number, offsetMs: number, direction: string): MatrixCase => ({
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
		code: 'signature_rejected',
		message: `The service rejected the signature (${status})`,
		description: `Synchronise the clock of the machine running n8n (NTP): this machine's clock is {any} s ${direction} the service's, more than the 5 minutes a signature is valid (server time {any}, signature timestamp {any}). The service said: expired_signature`,
		httpCode: String(status),
	},
	note: 'The description says to synchronise the clock, then gives the skew in seconds, server time and signature timestamp, then what the service said (its `error`, not the JSON).',
	spec: 'Silent on statuses (§7); chosen: 401/403 = signature rejected, explained with the clocks (§5.7: valid 5 minutes).',
});

/** An option the node cannot run with: every item fails with its message, nothing is sent. */
export function optionCase(
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
		expect: {
			kind: 'error',
			code: 'bad_input',
			message,
			description: 'remove the option to use its default',
		},
		spec,
	};
}
