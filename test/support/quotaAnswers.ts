/**
 * A quota's answers and starts with the times passed in, for the tests of sending/quota.ts and
 * sending/windowEnd.ts.
 */
import type { QuotaReading } from '../../nodes/TriggerAutomation/answer/rateLimitHeaders';
import { Quota } from '../../nodes/TriggerAutomation/sending/quota';

export const T0 = 1_000_000;

/** What an answer tells: `remaining` until `resetAt`, of `limit` in a window of `windowMs`. */
export const told = (
	remaining: number,
	resetAt: number,
	limit?: number,
	windowMs?: number,
): QuotaReading => ({
	remaining,
	resetAt,
	header: 'RateLimit',
	...(limit !== undefined && { limit }),
	...(windowMs !== undefined && { windowMs }),
});

/** A quota that has heard its first word (request 0 answered, telling `remaining` of 100). */
export function heardOnce(remaining = 100, resetAt = T0 + 10_000): Quota {
	const quota = new Quota();
	quota.ended(quota.start(T0), told(remaining, resetAt), 0, T0);
	return quota;
}

/**
 * The requests that start from `now` before the quota holds them back until an answer or the
 * reset (at most `most`), each at the time its pace lets it: the times in `at`.
 */
export function startAll(quota: Quota, now: number, most = 100, at: number[] = []): number[] {
	const started: number[] = [];
	for (let t = now; started.length < most; ) {
		const waitMs = quota.waitMs(t);
		if (waitMs === 0) {
			started.push(quota.start(t));
			at.push(t);
		} else if (quota.reset && t + waitMs < quota.reset.at) t += waitMs;
		else break;
	}
	return started;
}
