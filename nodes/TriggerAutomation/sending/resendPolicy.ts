/**
 * The whole re-send policy, as data and one function over it (as ky's `_calculateRetryDelay`):
 * which failures are sent again, after how long, against which budget, and what a wait too long
 * for the node does. triggerItem.ts asks it after every failed attempt. RESENT is the one table of
 * it: the editor's help and the docs' tables are made from it (test/repository/resendTable.test.ts).
 */
import type { Failure } from '../answer/failure';
import { MAX_WAIT_MS } from '../limits';

/** Whether `ms` is longer than the node waits: the one home of the "over 60 s" rule. */
export function tooLongToWait(ms: number): boolean {
	return ms > MAX_WAIT_MS;
}

/** Without a Retry-After: 0.5 s, doubling up to 32 s (under MAX_WAIT_MS: only the service's own wait can be too long). */
const FIRST_BACKOFF_MS = 500;
const MAX_DOUBLINGS = 6;

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

/** What the re-send rule does with each, as the docs' tables say it. */
export const RESENT_HOW = `Waits (the \`Retry-After\`, at most ${MAX_WAIT_MS / 1000} s; else ${FIRST_BACKOFF_MS / 1000} s doubling up to ${(FIRST_BACKOFF_MS * 2 ** MAX_DOUBLINGS) / 1000} s), then sends the item again, freshly signed, up to Options → Retries When Not Accepted`;

/** Whether the policy sends this failure again: it says no run was created (RESENT). */
export function isResent(failure: Failure): boolean {
	return failure.pushBack !== undefined && RESENT.some(({ code }) => code === failure.code);
}

/** An item's attempts so far, as the budget counts them. */
export interface Tries {
	/** Re-sends so far. */
	resent: number;
	/** Turn-aways that counted against Retries When Not Accepted. */
	spent: number;
}

/** Why an item is not sent again. */
export type Stop = 'never' | 'retries off' | 'retries spent' | 'wait too long';

export type ResendDecision =
	| { resend: true; afterMs: number; tries: Tries }
	| { resend: false; why: Stop; tries: Tries };

/**
 * After a failed attempt: send again, after how long, or stop and why. A turn-away costs a retry
 * only when the service accepted none of the item's pace's other requests since its last answer
 * (`othersAccepted`): losing a race for the service's limit is not the item's refusal.
 */
export function resendDecision(
	failure: Failure,
	before: Tries,
	retries: number,
	othersAccepted: boolean,
): ResendDecision {
	const tries = { ...before, spent: before.spent + (othersAccepted ? 0 : 1) };
	if (!isResent(failure)) return { resend: false, why: 'never', tries };
	const asked = failure.pushBack?.afterMs;
	if (asked !== undefined && tooLongToWait(asked)) {
		return { resend: false, why: 'wait too long', tries };
	}
	if (retries === 0) return { resend: false, why: 'retries off', tries };
	if (tries.spent > retries) return { resend: false, why: 'retries spent', tries };
	const afterMs = asked ?? FIRST_BACKOFF_MS * 2 ** Math.min(tries.resent, MAX_DOUBLINGS);
	return { resend: true, afterMs, tries: { ...tries, resent: tries.resent + 1 } };
}
