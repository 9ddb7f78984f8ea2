/**
 * Options → Timeout as a deadline for the whole answer. n8n's request helper aborts a request with
 * the signal of the context it is made on (the execution's Stop); the context handed to it here
 * gives a signal that also fires at the deadline. The HTTP client's own timeout ends once the
 * headers have arrived, and a body trickled slowly would otherwise keep the item waiting without end.
 */
import type { IExecuteFunctions } from 'n8n-workflow';

export interface Deadline {
	/** When the signal fires (ms since the epoch). */
	endsAt: number;
	timeoutMs: number;
	signal: AbortSignal;
	/** The node's context, with Stop and this deadline as its cancel signal. */
	ctx: IExecuteFunctions;
	/** Requests on this deadline that have not ended yet. */
	inFlight: number;
	/** Called once when a request on this deadline has ended (its abort listener is gone). */
	release(): void;
}

// Each request in flight adds an abort listener to the signal, and Node warns above 10.
export const REQUESTS_PER_DEADLINE = 8;

/** How much later than its Timeout a request may be stopped, so that nearby requests share. */
export function slackMs(timeoutMs: number): number {
	return Math.min(1000, Math.floor(timeoutMs / 100));
}

function withSignal(ctx: IExecuteFunctions, deadline: AbortSignal): IExecuteFunctions {
	const cancel = ctx.getExecutionCancelSignal();
	const signal = cancel ? AbortSignal.any([cancel, deadline]) : deadline;
	return Object.create(ctx, {
		getExecutionCancelSignal: { value: () => signal },
	}) as IExecuteFunctions;
}

const current = new WeakMap<IExecuteFunctions, Deadline>();

/**
 * The deadline of a request starting `now`. A timer signal and its combination with Stop cost
 * about 25 µs, so requests share one: each new one is set 1% (at most 1 s) past the Timeout, and
 * is shared by requests starting while it still leaves them their whole Timeout, up to 8 in flight
 * at once. Every request thus gets at least its Timeout and at most 1% more.
 */
export function deadlineFor(ctx: IExecuteFunctions, timeoutMs: number, now = Date.now()): Deadline {
	const shared = current.get(ctx);
	if (
		shared &&
		shared.timeoutMs === timeoutMs &&
		shared.endsAt - now >= timeoutMs &&
		shared.inFlight < REQUESTS_PER_DEADLINE
	) {
		shared.inFlight++;
		return shared;
	}
	// Timers cannot wait longer than 2^31 - 1 ms (Options → Timeout stops there too).
	const lifetime = Math.min(timeoutMs + slackMs(timeoutMs), 2 ** 31 - 1);
	const signal = AbortSignal.timeout(lifetime);
	const deadline: Deadline = {
		endsAt: now + lifetime,
		timeoutMs,
		signal,
		ctx: withSignal(ctx, signal),
		inFlight: 1,
		release: () => {
			deadline.inFlight--;
		},
	};
	current.set(ctx, deadline);
	return deadline;
}
