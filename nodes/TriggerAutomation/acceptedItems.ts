/**
 * n8n's Retry On Fail runs the node again, with the same run index and the same input items, when
 * the node threw or its first output item is an error item. Such a retry must not create a second
 * run for an item the service already accepted, so the outputs of accepted items are remembered
 * and the retry passes them on. "The same item" is the same item index in the same run of the node:
 * a retry gets the very items of the run it repeats, while a later run of the node in the same
 * execution (a loop iteration, a second branch) gets a new run index and sends all its items.
 *
 * The memory lives in n8n's own per-execution context of this node (as Loop Over Items keeps its
 * state): it travels with the execution, whichever worker runs it, and never outlives it. It is
 * released as soon as no retry can follow: after an attempt that needs none, or after the last try.
 */
import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';

const CONTEXT_KEY = 'acceptedItemsByRun';

interface RunMemory {
	tries: number;
	/** Output JSON by item index. */
	outputs: Record<string, IDataObject>;
}

export interface AcceptedItems {
	/** The output of this item from an earlier try of this run, if the service accepted it then. */
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
	const runIndex = String(ctx.getWorkflowDataProxy(0).$runIndex);
	const byRun = (context[CONTEXT_KEY] ??= {}) as Record<string, RunMemory>;
	const run = (byRun[runIndex] ??= { tries: 0, outputs: {} });
	run.tries++;
	return {
		earlier: (itemIndex) => run.outputs[itemIndex],
		accepted: (itemIndex, json) => {
			run.outputs[itemIndex] = json;
		},
		finish: (retryFollows) => {
			if (retryFollows && run.tries < maxTries(node)) return;
			delete byRun[runIndex];
			if (Object.keys(byRun).length === 0) delete context[CONTEXT_KEY];
		},
	};
}
