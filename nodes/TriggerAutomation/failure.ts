/**
 * What went wrong with an item, as one value, and the one error that carries it. Made where it is
 * found: before sending (`badInput`, bad parameters or item data), from the service's answer
 * (serviceAnswer.ts) or from a request that got none (noAnswer.ts); turned into n8n's own errors
 * in one place (nodeError.ts). A raw HTTP client error carries the request headers (the
 * signature), so it is read for its code and never passed on.
 */
export interface Failure {
	/** input: found before sending; network: no answer came; http: the service answered non-2xx. */
	kind: 'input' | 'network' | 'http';
	message: string;
	/**
	 * What to do first, then why (the clocks, what the service said), as plain text: anything this
	 * node did not write goes through editorText.ts. nodeError.ts puts MAY_HAVE_RUN before it when
	 * `mayHaveRun`.
	 */
	description?: string;
	/** The service's HTTP status, for `http`. */
	httpCode?: string;
	/** The request may have reached the service and created a run: it is never sent again. */
	mayHaveRun: boolean;
	/**
	 * Sending again is safe (the service provably did not accept the request) and can succeed (the
	 * cause can pass): connection refused, 429.
	 */
	resend: boolean;
	/**
	 * The service pushed back (429, 503, connection refused, no answer in time): send less for a
	 * while. `afterMs`: the wait it asked for (Retry-After).
	 */
	pushBack?: { afterMs?: number };
}

/** What is known of a request, for the messages that explain its failure. */
export interface RequestInfo {
	url: string;
	automationId: string;
	signatureTimestamp?: number;
	bodyBytes: number;
	timeoutMs: number;
}

export const MAY_HAVE_RUN =
	"The run may or may not have been created: check the automation's run history before running this item again.";

export const NOTHING_SENT =
	'Nothing was sent, so no run was created: once this is fixed, run the item again.';

/** An item that ended without an accepted answer. */
export class TriggerError extends Error {
	constructor(readonly failure: Failure) {
		super(failure.message);
		this.name = 'TriggerError';
	}
}

/** A problem of the parameters or the item's data, found before anything was sent. */
export function badInput(message: string, description?: string): TriggerError {
	return new TriggerError({
		kind: 'input',
		message,
		description,
		mayHaveRun: false,
		resend: false,
	});
}
