/**
 * What the service accepted in this pass, so that no retry of the pass sends it again. Two kinds of
 * retry run a pass again with the very items it had:
 * - Retry On Fail: n8n executes the node again at once when it threw or its first output item is
 *   an error item;
 * - n8n's Retry of a failed execution (Executions list, the public API): n8n loads the execution's
 *   saved data, the nodes' contexts included, removes the failed pass of the node and runs the node
 *   again at the same run index.
 * (A pass is what n8n calls a run of the node, numbered by its run index; here "run" means only the
 * service's.) The outputs of accepted items are therefore kept in n8n's own per-execution context of
 * this node, which n8n saves with the execution and which travels with it to whichever worker runs
 * it, keyed by the run index and the item index: a retry gets the same items at the same indexes,
 * while a later pass in the same execution (a loop iteration, a second branch) gets a new run index
 * and sends all its items.
 *
 * Also keyed by the webhook URL: a Retry "with currently saved workflow" whose credential now points
 * to another automation sends every item there, since that automation never got them. Other edits
 * made before such a Retry do not matter: an accepted item has its run, and a changed message would
 * make a second run, not replace the first. (n8n refuses to retry with a workflow where the node
 * that failed was renamed or deleted.)
 *
 * A Retry starts from the saved data of the execution it retries, and no later execution can change
 * that data: retried again, an execution passes on only what it had itself (or the executions it
 * retried) when it failed, and sends again what its earlier Retry sent. So the memory also names
 * the execution that last ran the pass and those it retried: an execution that finds another's id
 * there is a Retry, and its error says to retry it, not the one it retried (nodeError.ts).
 *
 * Nothing stays after a pass that needs no retry. After the last try that failed, it stays only if
 * the execution ends in error (the node threw), where n8n's Retry starts.
 */
import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';

const CONTEXT_KEY = 'acceptedItemsByPass';

interface PassMemory {
	/** Retry On Fail's tries of this pass so far; n8n's Retry starts counting again. */
	tries: number;
	url: string;
	/** Output JSON by item index. */
	outputs: Record<string, IDataObject>;
	/** The execution that last ran this pass (absent in memories saved before it was kept). */
	execution?: string;
	/** The executions it is n8n's Retry of, oldest first. */
	retryOf?: string[];
}

/**
 * How a try of the pass ended, as n8n's engine sees it: Retry On Fail follows 'error items' and
 * 'threw' while tries are left; the execution ends in error after the last 'threw', and is
 * cancelled at 'stopped'. n8n's Retry can follow either.
 */
export type PassEnd = 'passed' | 'error items' | 'threw' | 'stopped';

export interface AcceptedItems {
	/** The output of this item from an earlier try of this pass, if the service accepted it then. */
	earlier(itemIndex: number): IDataObject | undefined;
	accepted(itemIndex: number, json: IDataObject): void;
	finish(end: PassEnd): void;
	/** The executions this one is n8n's Retry of, oldest first; empty when it is none. */
	retryOf: readonly string[];
}

/** The tries n8n makes for a node with Retry On Fail (the same bounds in n8n 1.x and 2.x). */
function maxTries(node: INode): number {
	if (node.retryOnFail !== true) return 1;
	return Math.min(5, Math.max(2, node.maxTries ?? 3));
}

export function acceptedItems(ctx: IExecuteFunctions, url: string): AcceptedItems {
	const node = ctx.getNode();
	const context = ctx.getContext('node');
	const passIndex = String(ctx.getWorkflowDataProxy(0).$runIndex);
	const byPass = (context[CONTEXT_KEY] ??= {}) as Record<string, PassMemory>;
	const execution = ctx.getExecutionId();
	let pass = byPass[passIndex];
	// Saved by another execution: this one is n8n's Retry of it (Retry On Fail keeps the execution).
	const retryOf = [...(pass?.retryOf ?? [])];
	if (pass?.execution !== undefined && pass.execution !== execution) retryOf.push(pass.execution);
	if (pass?.url !== url) pass = byPass[passIndex] = { tries: 0, url, outputs: {} };
	pass.execution = execution;
	pass.retryOf = retryOf;
	pass.tries++;
	const forget = () => {
		delete byPass[passIndex];
		if (Object.keys(byPass).length === 0) delete context[CONTEXT_KEY];
	};
	return {
		earlier: (itemIndex) => pass.outputs[itemIndex],
		accepted: (itemIndex, json) => {
			pass.outputs[itemIndex] = json;
		},
		finish: (end) => {
			if (end === 'passed') return forget();
			if (end !== 'stopped' && pass.tries < maxTries(node)) return;
			// The execution goes on with the error items, or it ends here and n8n's Retry may follow,
			// with Retry On Fail's tries anew; kept even with no output, so that the Retry knows it is one.
			if (end === 'error items') return forget();
			pass.tries = 0;
		},
		retryOf,
	};
}
