/**
 * What the service accepted in this pass (n8n's run of the node), so that Retry On Fail and n8n's
 * Retry of the execution pass those items on instead of sending them again: kept in n8n's context of
 * this node, which n8n saves with the execution, by run index, item index and webhook URL, with the
 * executions that ran the pass. What each retry sends: docs/reference.md#retrying.
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
