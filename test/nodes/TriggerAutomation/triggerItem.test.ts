import { describe, expect, it } from 'vitest';

import { MAX_RETRY_WAIT_MS } from '../../../nodes/TriggerAutomation/answer/failure';
import { resendAfterMs } from '../../../nodes/TriggerAutomation/triggerItem';
import { rateLimited } from '../../support/failures';

describe('the re-send decision', () => {
	it('without Retry-After: 0.5 s, doubling, then 32 s however many re-sends, never past the limit', () => {
		const delays = Array.from({ length: 12 }, (_, resent) =>
			resendAfterMs(rateLimited(), { resent, spent: 0 }, 5),
		);
		expect(delays).toEqual([500, 1000, 2000, 4000, 8000, 16000, ...Array(6).fill(32_000)]);
		expect(resendAfterMs(rateLimited(), { resent: 1_000, spent: 0 }, 5)).toBe(32_000);
	});

	it("with Retry-After: the service's wait, up to the longest the node waits; a longer one is not waited for", () => {
		const tries = { resent: 9, spent: 1 };
		expect(resendAfterMs(rateLimited(1_000), tries, 5)).toBe(1_000);
		expect(resendAfterMs(rateLimited(MAX_RETRY_WAIT_MS), tries, 5)).toBe(MAX_RETRY_WAIT_MS);
		expect(resendAfterMs(rateLimited(MAX_RETRY_WAIT_MS + 1), tries, 5)).toBeUndefined();
	});

	it('a turn-away is re-sent until more have counted than Retries When Not Accepted allows; none with 0', () => {
		expect(resendAfterMs(rateLimited(1_000), { resent: 0, spent: 3 }, 3)).toBe(1_000);
		expect(resendAfterMs(rateLimited(1_000), { resent: 3, spent: 4 }, 3)).toBeUndefined();
		expect(resendAfterMs(rateLimited(1_000), { resent: 0, spent: 0 }, 0)).toBeUndefined();
	});

	it('what may have created a run is never re-sent', () => {
		const failure = { code: 'may_have_run', message: '(500)', resend: false } as const;
		expect(resendAfterMs(failure, { resent: 0, spent: 0 }, 5)).toBeUndefined();
	});
});
