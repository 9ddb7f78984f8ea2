import type { Failure } from '../../nodes/TriggerAutomation/answer/failure';

/** A 429, as serviceAnswer.ts makes one: `afterMs` is its Retry-After (none: undefined). */
export const rateLimited = (afterMs?: number): Failure => ({
	code: 'rate_limited',
	message: 'Rate limited by the service (429)',
	resend: true,
	pushBack: { afterMs },
});
