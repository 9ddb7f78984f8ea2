import type { Failure } from '../../nodes/TriggerAutomation/answer/failure';

/** A 429, as serviceAnswer.ts makes one: `afterMs` is its Retry-After (none: undefined). */
export const rateLimited = (afterMs?: number): Failure => ({
	code: 'rate_limited',
	message: 'Rate limited by the service (429)',
	pushBack: { afterMs },
});

/** The clock and the request the answer tests describe failures against. */
export const ANSWERED_AT = Date.parse('2026-11-21T10:00:00Z');
export const ANSWERED_REQUEST = {
	url: 'http://127.0.0.1:5678/webhooks/cloud/auto-7',
	automationId: 'auto-7',
	signatureTimestamp: ANSWERED_AT,
	bodyBytes: 42,
	timeoutMs: 30_000,
};
