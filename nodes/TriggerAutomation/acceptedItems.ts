/**
 * n8n's Retry On Fail executes the node again, in the same pass and with the same input items, when
 * the node threw or its first output item is an error item. (A pass is what n8n calls a run of the
 * node, numbered by its run index; here "run" means only the service's.) Such a retry must not
 * create a second run for an item the service already accepted, so the outputs of accepted items
 * are remembered and the retry passes them on. "The same item" is the same item index in the same
 * pass: a retry gets the very items of the pass it repeats, while a later pass of the node in the
 * same execution (a loop iteration, a second branch) gets a new run index and sends all its items.
 *
 * The memory lives in n8n's own per-execution context of this node (as Loop Over Items keeps its
 * state): it travels with the execution, whichever worker runs it, and never outlives it. It is
 * released as soon as no retry can follow: after an attempt that needs none, or after the last try.
 */
import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';

const CONTEXT_KEY = 'acceptedItemsByPass';

interface PassMemory {
	tries: number;
	/** Output JSON by item index. */
	outputs: Record<string, IDataObject>;
}

export interface AcceptedItems {
	/** The output of this item from an earlier try of this pass, if the service accepted it then. */
	earlier(itemIndex: number): IDataObject | undefined;
	accepted(itemIndex: number, json: IDataObject): void;
	/** After a try: n8n retries if the node threw or its first output item is an error item. */
	finish(retryFollows: boolean): void;
}

/** The tries n8n makes for a node with Retry On Fail (the same bounds in n8n 1.x and 2.x). */
function maxTries(node: INode): number {
	return Math.min(5, Math.max(2, node.maxTries ?? 3));
}

export function acceptedItems(ctx: IExecuteFunctions): AcceptedItems | undefined {
	const node = ctx.getNode();
	if (node.retryOnFail !== true) return undefined;
	const context = ctx.getContext('node');
	const passIndex = String(ctx.getWorkflowDataProxy(0).$runIndex);
	const byPass = (context[CONTEXT_KEY] ??= {}) as Record<string, PassMemory>;
	const pass = (byPass[passIndex] ??= { tries: 0, outputs: {} });
	pass.tries++;
	return {
		earlier: (itemIndex) => pass.outputs[itemIndex],
		accepted: (itemIndex, json) => {
			pass.outputs[itemIndex] = json;
		},
		finish: (retryFollows) => {
			if (retryFollows && pass.tries < maxTries(node)) return;
			delete byPass[passIndex];
			if (Object.keys(byPass).length === 0) delete context[CONTEXT_KEY];
		},
	};
}
