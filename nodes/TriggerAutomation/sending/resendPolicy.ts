/**
 * The re-send policy, its one source: as data and one function over it (as ky's
 * `_calculateRetryDelay`), asked after every failed attempt; its words: resendWords.ts.
 */
import type { Failure } from '../answer/failure';
import { MAX_WAIT_MS } from '../limits';

/** Whether `ms` is longer than the node waits (MAX_WAIT_MS): the Retry-After or reset fails the item. */
export function tooLongToWait(ms: number): boolean {
	return ms > MAX_WAIT_MS;
}

/** The backoff without a Retry-After: it stops under MAX_WAIT_MS, so only the service's wait is too long. */
export const FIRST_BACKOFF_MS = 500;
export const MAX_DOUBLINGS = 6;

/** What is sent again: only answers that say no run was created, for a cause that can pass. */
export const RESENT = [
	{ answer: '429, with or without `Retry-After`', code: 'rate_limited', short: '429' },
	{
		answer: '503 **with** `Retry-After` (seconds or an HTTP date)',
		code: 'rate_limited',
		short: '503 with Retry-After',
	},
	{ answer: 'Connection refused', code: 'connection_refused', short: 'connection refused' },
] as const;

/** Whether the policy sends this failure again: it says no run was created (RESENT). */
export function isResent(failure: Failure): boolean {
	return failure.pushBack !== undefined && RESENT.some(({ code }) => code === failure.code);
}

/** An item's attempts so far, as the budget counts them. */
export interface Tries {
	/** Re-sends so far. */
	resent: number;
	/** Turn-aways that counted against Retries When Not Accepted. */
	charged: number;
}

/** Why an item is not sent again. */
export type Stop = 'never' | 'retries off' | 'retries spent' | 'wait too long';

export type ResendDecision =
	| { resend: true; afterMs: number; tries: Tries }
	| { resend: false; why: Stop; tries: Tries };

/**
 * After a failed attempt: send again, after how long, or stop and why (resendWords.ts says it).
 * `othersAccepted`: losing a race for the service's limit is not the item's refusal.
 */
export function resendDecision(
	failure: Failure,
	before: Tries,
	retries: number,
	othersAccepted: boolean,
): ResendDecision {
	const tries = { ...before, charged: before.charged + (othersAccepted ? 0 : 1) };
	if (!isResent(failure)) return { resend: false, why: 'never', tries };
	const asked = failure.pushBack?.afterMs;
	if (asked !== undefined && tooLongToWait(asked)) {
		return { resend: false, why: 'wait too long', tries };
	}
	if (retries === 0) return { resend: false, why: 'retries off', tries };
	if (tries.charged > retries) return { resend: false, why: 'retries spent', tries };
	const afterMs = asked ?? FIRST_BACKOFF_MS * 2 ** Math.min(tries.resent, MAX_DOUBLINGS);
	return { resend: true, afterMs, tries: { ...tries, resent: tries.resent + 1 } };
}
