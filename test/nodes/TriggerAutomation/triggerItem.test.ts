import { describe, expect, it } from 'vitest';

import { MAX_RETRY_WAIT_MS } from '../../../nodes/TriggerAutomation/answer/failure';
import { resendDelayMs } from '../../../nodes/TriggerAutomation/triggerItem';
import { rateLimited } from '../../support/failures';

describe('the wait before a re-send', () => {
	it('without Retry-After: 0.5 s, doubling, then 32 s however many re-sends, never past the limit', () => {
		const delays = Array.from({ length: 12 }, (_, resent) => resendDelayMs(rateLimited(), resent));
		expect(delays).toEqual([500, 1000, 2000, 4000, 8000, 16000, ...Array(6).fill(32_000)]);
		expect(resendDelayMs(rateLimited(), 1_000)).toBe(32_000);
	});

	it("with Retry-After: the service's wait, up to the longest the node waits; a longer one is not waited for", () => {
		expect(resendDelayMs(rateLimited(1_000), 9)).toBe(1_000);
		expect(resendDelayMs(rateLimited(MAX_RETRY_WAIT_MS), 0)).toBe(MAX_RETRY_WAIT_MS);
		expect(resendDelayMs(rateLimited(MAX_RETRY_WAIT_MS + 1), 0)).toBeUndefined();
	});
});
