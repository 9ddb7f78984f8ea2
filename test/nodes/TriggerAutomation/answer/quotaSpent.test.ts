/**
 * An item let go unsent while the quota the service told is spent (answer/quotaSpent.ts): what its
 * error says. When it is made: serviceGate.test.ts and quota.engine.test.ts.
 */
import { describe, expect, it } from 'vitest';

import { quotaSpent } from '../../../../nodes/TriggerAutomation/answer/quotaSpent';
import { ANSWERED_AT } from '../../../support/failures';

describe('an item not sent while the quota is spent', () => {
	it('says when the quota resets, as a time and in seconds, which header said so, and what to do', () => {
		const failure = quotaSpent(ANSWERED_AT + 3_599_001, 'X-RateLimit-Remaining', ANSWERED_AT);
		expect(failure).toMatchObject({
			code: 'rate_limited',
			message:
				"Not sent: the service's quota is spent until 2026-11-21 11:00:00 UTC (in 3600 s), longer than this node waits",
		});
		expect(failure.description).toMatch(/^Run this item again after 2026-11-21 11:00:00 UTC/);
		expect(failure.description).toContain('(X-RateLimit-Remaining header)');
		expect(failure.description).toContain('waits at most 60 s');
	});
});
