/**
 * What went wrong → what n8n shows: its own error classes, with the item index; the item Continue
 * On Fail puts out; the execution hints above the output. The one place the node makes n8n errors:
 * bad input becomes a NodeOperationError, a request without an accepted answer a NodeApiError.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	JsonObject,
	NodeExecutionHint,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { LABELS, inOptions } from '../description';
import type { Failure, FailureCode } from './failure';
import {
	MAY_HAVE_RUN,
	NOTHING_SENT,
	TriggerError,
	fromN8n,
	isInputProblem,
	mayHaveRun,
} from './failure';

/**
 * The description a user reads. When a run may exist, checking the run history comes first: it is
 * what to do before anything else. Then the failure's own, which says what to do, then why.
 */
export function describe(failure: Failure): string | undefined {
	if (!mayHaveRun(failure)) return failure.description;
	return failure.description ? `${MAY_HAVE_RUN} ${failure.description}` : MAY_HAVE_RUN;
}

/**
 * n8n's error for an item, with the failure's code in its `context` (which n8n saves with the
 * execution and hands to an Error Trigger), where errorItem reads it too.
 */
export function toNodeError(
	ctx: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	if (error instanceof TriggerError) {
		const { failure } = error;
		const { message, httpCode } = failure;
		const options = { message, description: describe(failure), itemIndex };
		const nodeError = isInputProblem(failure)
			? new NodeOperationError(ctx.getNode(), message, options)
			: new NodeApiError(ctx.getNode(), { message, httpCode: httpCode ?? null } as JsonObject, {
					...options,
					httpCode,
				});
		// Both classes swap a message that mentions a network error code (ENOTFOUND …) for a
		// generic one, some advising an immediate retry; ours says what happened to the run.
		nodeError.message = message;
		nodeError.context.code = failure.code;
		return nodeError;
	}
	if (error instanceof NodeOperationError) {
		error.context.itemIndex ??= itemIndex;
		error.context.code ??= 'bad_input' satisfies FailureCode;
		return error;
	}
	return toNodeError(ctx, fromN8n(error), itemIndex);
}

/**
 * The Continue On Fail item, shaped as n8n's engine recognises an error item (only the keys `error`
 * and `details`, so it is routed to the error output). No `error` property on the item: the engine
 * would replace the JSON with the message alone, losing how to fix it, the status and the code.
 */
export function errorItem(
	error: NodeApiError | NodeOperationError,
	itemIndex: number,
): INodeExecutionData {
	const details: IDataObject = { itemIndex, code: error.context.code };
	if (error.description) details.description = error.description;
	if (error instanceof NodeApiError && error.httpCode) details.httpCode = error.httpCode;
	return { json: { error: error.message, details }, pairedItem: { item: itemIndex } };
}

/** Where the node stopped in its pass, and what the service had accepted of it. */
export interface StoppedPass {
	itemIndex: number;
	total: number;
	/** Items of this pass the service accepted, here or in the executions this one retries. */
	accepted: number;
	/** The executions this one is n8n's Retry of, oldest first, as far as the node knows them. */
	retryOf: readonly string[];
	/** n8n's Retry, even of an execution that never ran this node (`retryOf` then empty). */
	isRetry?: boolean;
}

/** 1st, 2nd, 3rd, 4th … 11th, 12th, 13th … 21st. */
export function ordinal(n: number): string {
	const suffix = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
	return `${n}${suffix}`;
}

/**
 * What every Retry says, as n8n tells a Retry nothing of the others of the same execution: the
 * items an earlier one accepted were sent again by this one (acceptedItems.ts). Without its end.
 * `retryOf` is empty when the execution retried never ran this node: n8n does not say which it was.
 */
function retrySentence(retryOf: readonly string[]): string {
	const retried = retryOf[retryOf.length - 1];
	const [execution, it] =
		retried === undefined
			? ['another', 'that execution']
			: [`execution ${retried}`, `execution ${retried}`];
	return (
		`This execution is n8n's Retry of ${execution}: if ${it} was retried before, the items that earlier Retry accepted were sent again, ` +
		'as n8n tells a Retry nothing of the others; to avoid that, retry only the latest execution of a chain of Retries'
	);
}

/**
 * The error that ends the execution. Its description ends with the failure's code, which the
 * editor would not show from `context` (NodeErrorView.vue), and before that says what n8n's Retry
 * will do (acceptedItems.ts): pass on the accepted items and send the others, this one too even if
 * it may have created a run. A Retry starts from the saved data of the execution it retries, which
 * a later execution cannot change: so a Retry's error says to retry it, not the execution it
 * retried, and every note says to retry the Retry. n8n numbers items from 0 ("[item 8]" in the
 * editor): beside a count of items, the failing one is named that way and by its place from 1.
 */
export function stoppingError<E extends NodeApiError | NodeOperationError>(
	nodeError: E,
	cause: unknown,
	pass: StoppedPass,
): E {
	const mayRun = cause instanceof TriggerError && mayHaveRun(cause.failure);
	const { itemIndex, total, accepted, retryOf } = pass;
	const isRetry = pass.isRetry === true || retryOf.length > 0;
	const sends = accepted > 0 || mayRun;
	const notes: string[] = [];
	if (total > 1 && (sends || isRetry)) {
		notes.push(
			`Item ${itemIndex} is the ${ordinal(itemIndex + 1)} of ${total} items (n8n counts from 0).`,
		);
	}
	if (isRetry) {
		const retried = retryOf[retryOf.length - 1];
		const older = retryOf.length > 1 ? ` (or ${retryOf.slice(0, -1).join(', ')} before it)` : '';
		const notThat = retried === undefined ? '' : `, not ${retried}${older}`;
		notes.push(`${retrySentence(retryOf)}: this one${notThat}.`);
	}
	if (accepted > 0) {
		notes.push(
			`The service accepted ${accepted} other item${accepted === 1 ? '' : 's'}: n8n's Retry of this execution passes ${accepted === 1 ? 'it' : 'them'} on ` +
				`without sending ${accepted === 1 ? 'it' : 'them'} again, and sends only the items not accepted${mayRun ? ', this one included' : ''}.`,
		);
	} else if (mayRun) {
		notes.push("n8n's Retry of this execution sends this item again.");
	}
	if (sends) notes.push('If that Retry fails too, retry it rather than this execution.');
	notes.push(`Failure code: \`${String(nodeError.context.code)}\`.`);
	// The description may end with what the service said, as it said it: a full stop sets it apart.
	// Without one (bad input the message names), what to do still comes before the notes.
	const own =
		nodeError.description ?? (nodeError.context.code === 'bad_input' ? NOTHING_SENT : null);
	const said = own?.replace(/([^.!?…])$/, '$1.');
	const note = notes.join(' ');
	nodeError.description = said ? `${said} ${note}` : note;
	return nodeError;
}

/**
 * Execution hints, shown above the node's output after a run: a preview sent nothing; the service
 * turned requests away and the node waited; it is a Retry; under Continue On Fail, how many items
 * failed and what to do about them.
 */
export function previewHint(): NodeExecutionHint {
	return {
		type: 'warning',
		location: 'outputPane',
		message: `Preview only: nothing was sent and no run was created. Turn off ${inOptions(LABELS.preview)} to start runs.`,
	};
}

/** `failed` items of `total` failed; `mayHaveRun` of them may have created a run. */
export function failuresHint(failed: number, mayHaveRun: number, total: number): NodeExecutionHint {
	const items = `${failed} of ${total} item${total === 1 ? '' : 's'}`;
	const message =
		mayHaveRun === 0
			? `${items} failed and created no run: fix what their errors say, then run them again.`
			: `${items} failed; ${mayHaveRun} of them may have created a run: check the automation's run history before running ${mayHaveRun === 1 ? 'it' : 'those'} again. ` +
				(mayHaveRun < failed
					? 'The others created no run: fix what their errors say, then run them again.'
					: '');
	return { type: 'warning', location: 'outputPane', message: message.trim() };
}

/** `ms` as the hint says it: whole seconds, or under one. */
function seconds(ms: number): string {
	return ms < 1000 ? 'under 1 s' : `${Math.round(ms / 1000)} s`;
}

/** What the service's turn-aways cost an execution, as sending/waitTally.ts counts it. */
export interface TurnAwayCost {
	turnedAway: number;
	resent: number;
	waitedMs: number;
}

/** What the service's turn-aways cost, and how the items ended; undefined when it turned none away. */
export function waitHint(
	tally: TurnAwayCost,
	failed: number,
	total: number,
): NodeExecutionHint | undefined {
	const { turnedAway, resent, waitedMs } = tally;
	if (turnedAway === 0) return undefined;
	const requests = `${turnedAway} request${turnedAway === 1 ? '' : 's'}`;
	const them = turnedAway === 1 ? 'it' : 'them';
	const again =
		resent === 0
			? `the node sent none of ${them} again`
			: `the node waited ${seconds(waitedMs)} in all and sent ${resent >= turnedAway ? them : `${resent} of them`} again`;
	const accepted = total - failed;
	const all = total === 1 ? 'The item was' : `All ${total} items were`;
	const ended =
		failed === 0
			? `${all} accepted, ${total === 1 ? 'once' : 'each once'}.`
			: accepted === 0
				? `${total === 1 ? 'The item' : `All ${total} items`} failed: ${failed === 1 ? 'its error says' : 'their errors say'} why.`
				: `${accepted} of ${total} items ${accepted === 1 ? 'was accepted, once' : 'were accepted, each once'}; ${failed} failed: ${failed === 1 ? 'its error says' : 'their errors say'} why.`;
	return {
		type: failed === 0 ? 'info' : 'warning',
		location: 'outputPane',
		message: `The service turned away ${requests} without creating a run; ${again}. ${ended}`,
	};
}

/** Every Retry of an execution says what it cannot know (`retryOf`: oldest first, if known). */
export function retryHint(retryOf: readonly string[]): NodeExecutionHint {
	return { type: 'info', location: 'outputPane', message: `${retrySentence(retryOf)}.` };
}
