/**
 * The package's one error class (as standard-webhooks has one): an item ended without an accepted
 * answer, and `failure` says why. The credential throws it when it will not sign (a malformed
 * webhook URL, a secret that cannot sign, a request it does not sign: code `bad_input`, nothing
 * sent); the node, with every failure it finds (nodes/TriggerAutomation/answer/failure.ts).
 */

/**
 * The kinds of failure, each with one short code that never changes: a workflow branches on it (an
 * IF or Switch node on `details.code` of an error item, `context.code` of the error that stopped
 * the node). The one table of what each means and what to do: docs/reference.md#errors.
 */
export const FAILURE_CODES = [
	'bad_input',
	'n8n_refused',
	'connection_refused',
	'host_not_found',
	'tls_failed',
	'redirected',
	'signature_rejected',
	'automation_not_found',
	'body_too_large',
	'body_rejected',
	'rate_limited',
	'service_refused',
	'may_have_run',
] as const;

export type FailureCode = (typeof FAILURE_CODES)[number];

export interface Failure {
	/**
	 * What kind of failure it is. `bad_input` and `n8n_refused` are problems of the parameters, the
	 * item's data, the credential or n8n's settings, found before anything was sent: n8n shows them
	 * as a NodeOperationError, a request's failure as a NodeApiError. Only `may_have_run` may have
	 * created a run.
	 */
	code: FailureCode;
	message: string;
	/**
	 * What to do first, then why (the clocks, what the service said), as plain text: anything this
	 * node did not write goes through `editorText`. nodeError.ts puts MAY_HAVE_RUN before it when
	 * the failure may have created a run.
	 */
	description?: string;
	/** The service's HTTP status, when it answered. */
	httpCode?: string;
	/**
	 * The service pushed back (429, 503, connection refused, no answer in time): send less for a
	 * while. `afterMs`: the wait it asked for (Retry-After).
	 */
	pushBack?: { afterMs?: number };
	/**
	 * Why the node stopped sending an item the service turned away (sending/resendPolicy.ts), with
	 * how often it was turned away, over how long: its title and advice say so (rateLimited.ts).
	 */
	stopped?: {
		why: 'retries off' | 'retries spent' | 'wait too long';
		turnedAway: number;
		turnedAwayForMs: number;
	};
}

/** An item that ended without an accepted answer, and why. */
export class TriggerError extends Error {
	constructor(readonly failure: Failure) {
		super(failure.message);
		this.name = 'TriggerError';
	}
}

/** The credential will not sign or send: the message says how to fix it; nothing was sent. */
export function credentialRefusal(message: string): TriggerError {
	return new TriggerError({ code: 'bad_input', message });
}
