/**
 * n8n's Retry On Fail runs the node again with all its items, including those whose runs the
 * service has already accepted. While such a retry can follow (the setting is on and an item
 * failed), the outputs of accepted items are kept here, and the retry passes them on instead of
 * creating a second run. Kept per execution and node, and for 10 minutes at most.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

// n8n waits at most 5 s between at most 5 tries; this leaves a wide margin.
const KEEP_MS = 10 * 60 * 1000;

interface Kept {
	storedAt: number;
	outputs: Map<number, IDataObject>;
}

const keptByAttemptKey = new Map<string, Kept>();

export interface AcceptedItems {
	/** The output of this item from an earlier attempt, if the service accepted it then. */
	earlier(itemIndex: number): IDataObject | undefined;
	accepted(itemIndex: number, json: IDataObject): void;
	/** After an attempt: forget everything unless an item failed (then a retry may follow). */
	finish(anyItemFailed: boolean): void;
}

export function acceptedItems(ctx: IExecuteFunctions): AcceptedItems | undefined {
	const node = ctx.getNode();
	if (node.retryOnFail !== true) return undefined;
	const now = Date.now();
	for (const [key, kept] of keptByAttemptKey) {
		if (now - kept.storedAt > KEEP_MS) keptByAttemptKey.delete(key);
	}
	const key = `${ctx.getExecutionId()}\u0000${node.id ?? node.name}`;
	const kept = keptByAttemptKey.get(key) ?? { storedAt: now, outputs: new Map() };
	keptByAttemptKey.set(key, kept);
	return {
		earlier: (itemIndex) => kept.outputs.get(itemIndex),
		accepted: (itemIndex, json) => kept.outputs.set(itemIndex, json),
		finish: (anyItemFailed) => {
			if (anyItemFailed) kept.storedAt = Date.now();
			else keptByAttemptKey.delete(key);
		},
	};
}
