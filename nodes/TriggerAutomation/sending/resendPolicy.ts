/**
 * The re-send policy, the one source of it: which failures are sent again, after how long, when a
 * turn-away costs a retry, and the wait beyond which the node gives up; as data, the words the
 * editor's help and the docs say it with, and one function over them (as ky's
 * `_calculateRetryDelay`). triggerItem.ts asks it after every failed attempt;
 * test/repository/resendTable.test.ts holds the help and the docs to these words.
 */
import type { Failure } from '../answer/failure';
import { MAX_WAIT_MS } from '../limits';

/** Whether `ms` is longer than the node waits (MAX_WAIT_MS): the Retry-After or reset fails the item. */
export function tooLongToWait(ms: number): boolean {
	return ms > MAX_WAIT_MS;
}

/** The backoff without a Retry-After: it stops under MAX_WAIT_MS, so only the service's wait is too long. */
const FIRST_BACKOFF_MS = 500;
const MAX_DOUBLINGS = 6;

const seconds = (ms: number) => `${ms / 1000} s`;
const BACKOFF = `a backoff of ${seconds(FIRST_BACKOFF_MS)} doubling up to ${seconds(FIRST_BACKOFF_MS * 2 ** MAX_DOUBLINGS)}`;

/** What is sent again: only answers that say no run was created, for a cause that can pass. */
export const RESENT = [
	{
		answer: '429, with or without `Retry-After`',
		code: 'rate_limited',
		short: '429',
		waits: `its \`Retry-After\`, or without one ${BACKOFF}`,
	},
	{
		answer: '503 **with** `Retry-After` (seconds or an HTTP date)',
		code: 'rate_limited',
		short: '503 with Retry-After',
		waits: 'its `Retry-After`',
	},
	{
		answer: 'Connection refused',
		code: 'connection_refused',
		short: 'connection refused',
		waits: `${BACKOFF} (a refused connection has no \`Retry-After\`)`,
	},
] as const;

/** How a row of RESENT is re-sent, as behind-a-proxy.md's table says it. */
export function resentHow({ waits }: (typeof RESENT)[number]): string {
	return `Waits ${waits}, then sends the item again, freshly signed, up to Options → Retries When Not Accepted`;
}

/** The policy in words (Markdown): reference.md says each, the editor's help each but `never`. */
export const RESEND_POLICY = {
	what: `Sent again, freshly signed, before new items: only a ${RESENT.map(({ short }) => short.replace('Retry-After', '`Retry-After`')).join(', a ')}, as each says no run was created.`,
	after: `It waits its \`Retry-After\`, or without one ${BACKOFF}.`,
	giveUp: `A \`Retry-After\` over ${seconds(MAX_WAIT_MS)} fails the item at once (\`rate_limited\`): the node waits no longer.`,
	costs:
		"A turn-away costs one of Retries When Not Accepted only when no other request was accepted meanwhile (since the item's previous attempt, or since it began): under Adaptive, no request of the n8n process to that service (each queue-mode worker counts its own); under Fixed Batches and One at a Time, none of the execution. At `Retry-After: 1`, a busy spell costs about one a second.",
	never:
		'What may have created a run (a 5xx, a timeout, a connection closed mid-answer) is never sent again by the node.',
} as const;

/** The same words as the editor shows them: plain text. */
export const plain = (markdown: string) => markdown.replace(/`|\*\*/g, '');

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
 * After a failed attempt: send again, after how long, or stop and why (RESEND_POLICY).
 * `othersAccepted`: losing a race for the service's limit is not the item's refusal.
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
