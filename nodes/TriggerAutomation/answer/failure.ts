/**
 * What went wrong with an item, as one value, and the one error that carries it. Made where it is
 * found: before sending (`badInput`, bad parameters or item data), from the service's answer
 * (serviceAnswer.ts) or from a request that got none (noAnswer.ts); turned into n8n's own errors
 * in one place (nodeError.ts). A raw HTTP client error carries the request headers (the
 * signature), so it is read for its code and never passed on.
 */
import type { Failure } from '../../../credentials/common/triggerError';
import { TriggerError } from '../../../credentials/common/triggerError';

// The one Failure and the one error class live with the credential, which throws it too.
export type { Failure, FailureCode } from '../../../credentials/common/triggerError';
export { FAILURE_CODES, TriggerError } from '../../../credentials/common/triggerError';

/** The request may have reached the service and created a run: it is never sent again. */
export function mayHaveRun(failure: Failure): boolean {
	return failure.code === 'may_have_run';
}

/** A problem of the node's input or n8n's settings rather than of a request. */
export function isInputProblem(failure: Failure): boolean {
	return failure.code === 'bad_input' || failure.code === 'n8n_refused';
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


/** A problem of the parameters or the item's data, found before anything was sent. */
export function badInput(message: string, description?: string): TriggerError {
	return new TriggerError({ code: 'bad_input', message, description });
}

/** n8n's own error (an expression error …): it already says what is wrong. */
export function fromN8n(error: unknown): TriggerError {
	const message = error instanceof Error ? error.message : String(error);
	const description = (error as { description?: unknown } | undefined)?.description;
	return new TriggerError({
		code: 'bad_input',
		message,
		description: typeof description === 'string' ? description : undefined,
	});
}

/**
 * Text from elsewhere (what the service said, n8n's own description) made fit for an error's
 * description. n8n's editor shows a description as HTML (NodeErrorView.vue): text between two
 * backticks becomes <code>, then two sanitizers (xss, then sanitize-html) keep a few tags, and the
 * result is set as innerHTML. A tag they do not keep is dropped without a trace (the service's
 * "signs <t>.<body>" reads "signs ."), and an entity such as &lt; shows as the character it names.
 * HTML entities would show as written where the same description is read as text (the item's JSON,
 * `n8n execute`, logs), so those characters are written as look-alikes that read the same in both.
 */

/** `<`, `>`, `&` and the backtick, as characters that neither HTML nor the backticks read. */
const LOOK_ALIKES: Record<string, string> = {
	'<': '\u2039', // ‹ single left-pointing angle quotation mark
	'>': '\u203a', // ›
	'&': '\uff06', // ＆ fullwidth ampersand
	'`': '\u02cb', // ˋ modifier letter grave accent
};

/**
 * The text on one line (the editor runs line breaks and spaces together anyway; control characters
 * become spaces too), with nothing the editor reads as markup.
 */
export function editorText(text: string): string {
	return text
		.replace(/[\s\p{Cc}]+/gu, ' ')
		.trim()
		.replace(/[<>&`]/g, (character) => LOOK_ALIKES[character]);
}
