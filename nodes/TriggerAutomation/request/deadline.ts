/**
 * Options → Timeout as a deadline for the whole answer. n8n's request helper aborts a request with
 * the cancel signal of the context it is called on (the execution's Stop), set over any signal the
 * node passes; the context handed to it here gives one that also fires at the Timeout. The HTTP
 * client's own `timeout` only ends idle waits, and a body trickled slowly would keep the item
 * waiting without end.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

export interface Deadline {
	/** The node's context, whose cancel signal fires at Stop or once the Timeout has passed. */
	ctx: IExecuteFunctions;
	/** The timer alone: aborted means the Timeout passed (Stop does not abort it). */
	timer: AbortSignal;
}

/** The deadline of one request, starting now. */
export function deadline(ctx: IExecuteFunctions, timeoutMs: number): Deadline {
	const timer = AbortSignal.timeout(timeoutMs);
	const stop = ctx.getExecutionCancelSignal();
	// `any` adds no listener to the execution's signal: nothing of this request stays on it.
	const signal = stop ? AbortSignal.any([stop, timer]) : timer;
	return {
		ctx: Object.create(ctx, { getExecutionCancelSignal: { value: () => signal } }),
		timer,
	};
}
