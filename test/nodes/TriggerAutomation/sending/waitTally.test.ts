import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { Attempt } from '../../../../nodes/TriggerAutomation/request/attempt';
import { WaitTally } from '../../../../nodes/TriggerAutomation/sending/waitTally';
import { rateLimited } from '../../../support/failures';

const turnedAway: Attempt = { failure: rateLimited(1_000) };
const mayHaveRun: Attempt = { failure: { code: 'may_have_run', message: '(500)' } };
const accepted = {
	accepted: { statusCode: 202, headers: {}, body: Buffer.alloc(0) },
	signedAt: 0,
} as Attempt;

describe("what the service's turn-aways cost an execution, as its pace counts them", () => {
	beforeEach(() => {
		vi.useFakeTimers({ now: 0 });
	});
	afterEach(() => {
		vi.useRealTimers();
	});

	it('counts the requests turned away (only what the re-send policy sends again) and those sent again', () => {
		const tally = new WaitTally();
		for (const [resend, attempt] of [
			[false, turnedAway],
			[true, turnedAway],
			[true, accepted],
			[false, mayHaveRun],
		] as const) {
			const tracked = tally.track(resend);
			tracked.sent();
			tracked.done(attempt);
		}
		expect(tally).toMatchObject({ turnedAway: 2, resent: 2 });
	});

	it('a re-send waits from when it is asked for until its request goes; waits that overlap count once', () => {
		const tally = new WaitTally();
		const first = tally.track(true);
		vi.advanceTimersByTime(400);
		const second = tally.track(true);
		vi.advanceTimersByTime(600);
		first.sent();
		vi.advanceTimersByTime(500);
		second.sent();
		expect(tally.waitedMs).toBe(1_500);
		// A new item does not wait to be sent again.
		const fresh = tally.track(false);
		vi.advanceTimersByTime(1_000);
		fresh.sent();
		expect(tally.waitedMs).toBe(1_500);
	});

	it('a re-send that never goes (Stop) stops waiting then, is not counted as sent again, nor turned away', () => {
		const tally = new WaitTally();
		const stopped = tally.track(true);
		vi.advanceTimersByTime(700);
		stopped.done(undefined);
		vi.advanceTimersByTime(5_000);
		expect(tally).toMatchObject({ waitedMs: 700, resent: 0, turnedAway: 0, mostInFlight: 0 });
	});

	it('the most requests in flight at once', () => {
		const tally = new WaitTally();
		const requests = Array.from({ length: 7 }, () => tally.track(false));
		for (const request of requests.slice(0, 4)) request.sent();
		requests[0].done(accepted);
		for (const request of requests.slice(4)) request.sent();
		for (const request of requests.slice(1)) request.done(accepted);
		expect(tally.mostInFlight).toBe(6);
	});
});
