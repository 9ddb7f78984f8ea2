/**
 * The 429s of a quota told in every answer that a sender had time to avoid: those whose request
 * reached the service some time after the service first answered that sender (told it the quota).
 * Both times are the service's (the receiver's clock), never what a client believes it sent.
 */

/** One 429 as the service saw it, in ms on one clock. */
export interface Refusal {
	/** When its request arrived. */
	arrivedMs: number;
	/** When the 429 was answered (written). */
	answeredMs: number;
	/** Its request's path: whose it was, of several processes (the receiver's; not nginx's). */
	path?: string;
}

/**
 * 429s whose request arrived `afterMs` or more after its sender's first answer was written (by
 * path): a quota told in every answer, the 429s of a client that had had that long to read it.
 */
export function countToldAfter(
	refusals: Refusal[],
	firstAnswered: Record<string, number>,
	afterMs: number,
): number {
	return refusals.filter((r) => r.arrivedMs - (firstAnswered[r.path ?? ''] ?? Infinity) >= afterMs)
		.length;
}
