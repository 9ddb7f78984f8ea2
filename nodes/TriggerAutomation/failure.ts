/**
 * A trigger that went wrong, as plain values: what happened, how to fix it, and whether sending again
 * is safe. answerFailure.ts and requestFailure.ts make them; nodeErrors.ts turns them into n8n's
 * errors. A raw HTTP client error carries the request headers (the signature), so it is read for
 * its code and never passed on.
 */
export interface Failure {
	/** input: found before sending (nothing was sent); network: no answer; http: a non-2xx answer. */
	kind: 'input' | 'network' | 'http';
	message: string;
	description?: string;
	/** HTTP status, for failures the service answered. */
	httpCode?: string;
	/**
	 * Whether sending again is both safe (the service provably did not accept the request, so no run
	 * was created) and useful (the cause can pass): only connection refused and 429.
	 */
	retryable: boolean;
	/** For 429: how long the service asked us to wait. */
	retryAfterMs?: number;
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

/** A trigger that ended without an accepted answer, carrying what is known about why. */
export class ItemFailure extends Error {
	constructor(readonly failure: Failure) {
		super(failure.message);
	}
}
