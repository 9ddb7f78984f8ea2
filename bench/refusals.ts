/**
 * Which 429s a client could have avoided. A 429 is blind when its request reached the service
 * before the service had answered any 429 in that run: no client could have known. Every other
 * 429 is informed: the client had been told. Both times are the service's (the receiver's clock,
 * or nginx's log), never what a client believes it sent. Arriving at the very time the first 429
 * was answered counts as before it (nginx logs whole ms): no client could have had that answer yet.
 */

/** Issue 53's target for a burst at one service: informed 429s at most this many per item. */
export const MAX_INFORMED_PER_ITEM = 0.1;

/** One 429 as the service saw it, in ms on one clock. */
export interface Refusal {
	/** When its request arrived. */
	arrivedMs: number;
	/** When the 429 was answered (written). */
	answeredMs: number;
	/** Its request's path: whose it was, of several processes (the receiver's; not nginx's). */
	path?: string;
}

export interface RefusalCount {
	blind: number;
	informed: number;
}

/** The run's 429s split by the rule: blind when arrived by the time the first 429 was answered. */
export function countRefusals(refusals: Refusal[]): RefusalCount {
	const firstAnswered = refusals.reduce((first, r) => Math.min(first, r.answeredMs), Infinity);
	const blind = refusals.filter((r) => r.arrivedMs <= firstAnswered).length;
	return { blind, informed: refusals.length - blind };
}

/**
 * 429s whose request arrived after its sender's first answer was written (`firstAnswered`, by
 * path): where every answer tells a quota, the 429s of a client that had been told it.
 */
export function countTold(refusals: Refusal[], firstAnswered: Record<string, number>): number {
	return refusals.filter((r) => r.arrivedMs > (firstAnswered[r.path ?? ''] ?? Infinity)).length;
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
