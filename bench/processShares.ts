/**
 * Whether one of several n8n processes sending to one service starved: each process's share of the
 * requests the service accepted while every process still had items to send, that is up to the
 * moment the first process had its last item accepted. Over the whole run every process gets its
 * items accepted in the end, so shares counted to the end (or over the ideal time, when the run
 * nearly meets it) are equal by construction; a process kept back shows only while the others are
 * still sending. 1 is an equal share.
 */

export interface ProcessShares {
	/** When the first process had its last item accepted, on the times' clock. */
	windowEndMs: number;
	/** Per process, its share of the accepted requests up to windowEndMs, in equal shares. */
	shares: number[];
}

/**
 * `acceptedMs[p]`: when the service accepted each of process p's requests (any order). A process
 * with none accepted never finished: its share is 0.
 */
export function processShares(acceptedMs: number[][]): ProcessShares {
	const ends = acceptedMs.filter((times) => times.length > 0).map((times) => Math.max(...times));
	if (ends.length === 0) throw new Error('No process had a request accepted');
	const windowEndMs = Math.min(...ends);
	const within = acceptedMs.map((times) => times.filter((ms) => ms <= windowEndMs).length);
	const total = within.reduce((sum, n) => sum + n, 0);
	return { windowEndMs, shares: within.map((n) => (n * acceptedMs.length) / total) };
}

/** Whether every share is within `[low, high]` equal shares. */
export const noneStarved = (shares: number[], low = 0.5, high = 2) =>
	shares.every((share) => share >= low && share <= high);
