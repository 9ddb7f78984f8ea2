/**
 * An item not sent because the quota the service told (answer/rateLimitHeaders.ts) is spent until
 * a reset further off than the node waits: the twin of `askedToWait` (rateLimited.ts) for a
 * Retry-After that long. Both come from the one closure of the service's gate (serviceGate.ts).
 */
import type { Failure } from './failure';
import { MAX_WAIT_MS } from '../limits';
import type { QuotaReading } from './rateLimitHeaders';

/** `resetAt` as the editor shows it: UTC, to the next second, "2026-11-21 10:00:30 UTC". */
function utc(resetAt: number): string {
	const second = new Date(Math.ceil(resetAt / 1000) * 1000);
	return `${second.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** Not sent: `header` said no request remains until `resetAt`, more than MAX_WAIT_MS away. */
export function quotaSpent(resetAt: number, header: QuotaReading['header'], now: number): Failure {
	const seconds = Math.ceil((resetAt - now) / 1000);
	return {
		code: 'rate_limited',
		message: `Not sent: the service's quota is spent until ${utc(resetAt)} (in ${seconds} s), longer than this node waits`,
		description:
			`Run this item again after ${utc(resetAt)}, or ask the service's operator for a larger quota. ` +
			`Its answers said (${header} header) that it takes no more requests until then, and the node waits at most ${MAX_WAIT_MS / 1000} s: until then, nothing more is sent to it.`,
	};
}
