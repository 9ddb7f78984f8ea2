import { describe, expect, it } from 'vitest';

import type { Tries } from '../../../../nodes/TriggerAutomation/sending/resendPolicy';
import { MAX_WAIT_MS } from '../../../../nodes/TriggerAutomation/limits';
import {
	resendDecision,
	tooLongToWait,
} from '../../../../nodes/TriggerAutomation/sending/resendPolicy';
import { rateLimited } from '../../../support/failures';

const afterMs = (decision: ReturnType<typeof resendDecision>) =>
	decision.resend ? decision.afterMs : undefined;

describe('the re-send decision', () => {
	it('without Retry-After: 0.5 s, doubling, then 32 s however many re-sends, never past the limit', () => {
		const delays = Array.from({ length: 12 }, (_, resent) =>
			afterMs(resendDecision(rateLimited(), { resent, charged: 0 }, 5, true)),
		);
		expect(delays).toEqual([500, 1000, 2000, 4000, 8000, 16000, ...Array(6).fill(32_000)]);
		expect(afterMs(resendDecision(rateLimited(), { resent: 1_000, charged: 0 }, 5, true))).toBe(
			32_000,
		);
	});

	it("with Retry-After: the service's wait, up to the longest the node waits; a longer one is not waited for, whatever the retries", () => {
		const tries = { resent: 9, charged: 1 };
		expect(afterMs(resendDecision(rateLimited(1_000), tries, 5, false))).toBe(1_000);
		expect(afterMs(resendDecision(rateLimited(MAX_WAIT_MS), tries, 5, false))).toBe(MAX_WAIT_MS);
		for (const retries of [0, 5]) {
			expect(resendDecision(rateLimited(MAX_WAIT_MS + 1), tries, retries, false)).toMatchObject({
				resend: false,
				why: 'wait too long',
			});
		}
	});

	it('a turn-away costs a retry only when no other request of the pace was accepted since; the item stops once more have counted than Retries When Not Accepted allows', () => {
		let tries: Tries = { resent: 0, charged: 0 };
		const whys: string[] = [];
		// Three turn-aways while others were accepted cost nothing; then three that cost one each.
		for (const othersAccepted of [true, true, true, false, false, false, false]) {
			const decision = resendDecision(rateLimited(1_000), tries, 3, othersAccepted);
			tries = decision.tries;
			whys.push(decision.resend ? 'resend' : decision.why);
		}
		expect(whys).toEqual([...Array(6).fill('resend'), 'retries spent']);
		expect(tries).toEqual({ resent: 6, charged: 4 });
	});

	it('with Retries When Not Accepted at 0, a turn-away is not sent again', () => {
		expect(resendDecision(rateLimited(1_000), { resent: 0, charged: 0 }, 0, true)).toMatchObject({
			resend: false,
			why: 'retries off',
		});
	});

	it('what may have created a run, or what the limiter failed unsent, is never re-sent', () => {
		const mayHaveRun = { code: 'may_have_run', message: '(500)', pushBack: {} } as const;
		const unsent = { code: 'rate_limited', message: 'Not sent' } as const;
		for (const failure of [mayHaveRun, unsent]) {
			expect(resendDecision(failure, { resent: 0, charged: 0 }, 5, false)).toMatchObject({
				resend: false,
				why: 'never',
			});
		}
	});
});

describe('the longest the node waits', () => {
	it('is 60 s: a wait of exactly that is kept, a millisecond more is too long', () => {
		expect(tooLongToWait(60_000)).toBe(false);
		expect(tooLongToWait(60_001)).toBe(true);
	});
});
