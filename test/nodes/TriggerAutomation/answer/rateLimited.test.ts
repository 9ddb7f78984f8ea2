import { describe, expect, it } from 'vitest';

import type { Failure } from '../../../../nodes/TriggerAutomation/answer/failure';
import type { RateLimitedSending } from '../../../../nodes/TriggerAutomation/answer/rateLimited';
import {
	askedToWait,
	quotaSpent,
	rateLimitAdvice,
} from '../../../../nodes/TriggerAutomation/answer/rateLimited';
import { failureFromAnswer } from '../../../../nodes/TriggerAutomation/answer/serviceAnswer';
import { ANSWERED_AT, ANSWERED_REQUEST } from '../../../support/failures';

const now = ANSWERED_AT;
const request = ANSWERED_REQUEST;

describe('an item not sent because the service asked to wait longer than the node waits', () => {
	it('is rate_limited, never re-sent, and says the wait left in whole seconds, rounded up', () => {
		expect(askedToWait(3_599_001)).toMatchObject({
			code: 'rate_limited',
			message:
				'Not sent: the service asked to wait 3600 s more (Retry-After), longer than this node waits',
		});
		expect(askedToWait(3_599_001).description).toMatch(/^Run this item again after that wait\./);
	});
});

describe('a 429 the item failed with: advice that fits how it was sent, naming no mode not in use', () => {
	const spent = { why: 'retries spent', turnedAway: 6, turnedAwayForMs: 5_400 } as const;
	/** A 429 the node stopped sending, as triggerItem.ts throws it (`stopped`: the re-send policy's). */
	const tooMany = (retryAfter?: string, stopped: Failure['stopped'] = spent): Failure => ({
		...failureFromAnswer(
			{
				statusCode: 429,
				headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter },
				body: Buffer.from('{"message":"slow down"}'),
			},
			request,
			now,
		)!,
		stopped,
	});
	const adaptive: RateLimitedSending = { sending: 'adaptive', atOnce: 1, retries: 5 };
	const MODES = /Sending|Adaptive|One at a Time|Fixed Batches|Batch/;

	it('Adaptive, retries spent: the title says so, how often and over how long; raise Retries When Not Accepted or run later, then what the service said', () => {
		const { message, description } = rateLimitAdvice(tooMany('1'), adaptive);
		expect(message).toBe(
			'Rate limited by the service (429): turned away 6 times in 5 s, retries spent',
		);
		expect(description).toBe(
			'Raise Options → Retries When Not Accepted (now 5; about one per second of a busy spell), or run this item again later, when the service is less busy: it turned this item away 6 times in 5 s. The service said: slow down',
		);
		expect(description).not.toMatch(MODES);
	});

	it('One at a Time (batches of one), retries spent: the same, no batch advice', () => {
		const { description } = rateLimitAdvice(tooMany(undefined, { ...spent, turnedAway: 1 }), {
			...adaptive,
			sending: 'batches',
			retries: 3,
		});
		expect(description).toMatch(/^Raise Options → Retries When Not Accepted \(now 3; /);
		expect(description).toContain('turned this item away once.');
		expect(description).not.toMatch(MODES);
	});

	it('Fixed Batches, retries spent: also smaller batches or a longer interval, with the most requests it had in flight at once', () => {
		const { description } = rateLimitAdvice(tooMany('1'), {
			...adaptive,
			sending: 'batches',
			atOnce: 7,
		});
		expect(description).toContain('Raise Options → Retries When Not Accepted (now 5; ');
		expect(description).toContain(
			"Fixed Batches sent up to 7 requests at once: fewer per batch (Options → Batching → Items per Batch) or a longer Batch Interval (Ms) keep under the service's limit.",
		);
	});

	it('Retries When Not Accepted 0: raise it, as nothing was sent again', () => {
		const off = { why: 'retries off', turnedAway: 1, turnedAwayForMs: 0 } as const;
		const { message, description } = rateLimitAdvice(tooMany('1', off), {
			...adaptive,
			retries: 0,
		});
		expect(message).toBe(
			'Rate limited by the service (429): not sent again, as Retries When Not Accepted is 0',
		);
		expect(description).toMatch(
			/^Raise Options → Retries When Not Accepted \(now 0\) to have the node wait and send a turned-away item again, or run this item again later\./,
		);
	});

	it('a Retry-After longer than the node waits: run it after that wait, whatever the mode or the retries', () => {
		for (const how of [adaptive, { ...adaptive, sending: 'batches' as const, atOnce: 50 }]) {
			const tooLong = { why: 'wait too long', turnedAway: 1, turnedAwayForMs: 0 } as const;
			const { message, description } = rateLimitAdvice(tooMany('120', tooLong), how);
			expect(message).toBe(
				'Rate limited by the service (429): asked to wait 120 s (Retry-After), longer than this node waits',
			);
			expect(description).toBe(
				'Run this item again after that wait: the service asked to wait 120 s (Retry-After), longer than the 60 s this node waits. The service said: slow down',
			);
		}
	});

	it('a connection refused until the retries were spent: its title says how often and over how long', () => {
		const refused: Failure = {
			code: 'connection_refused',
			pushBack: {},
			message: 'Could not connect to 127.0.0.1:9: connection refused',
			description: 'Check that the service is reachable.',
			stopped: { ...spent, turnedAwayForMs: 31_000 },
		};
		expect(rateLimitAdvice(refused, adaptive)).toEqual({
			...refused,
			message:
				'Could not connect to 127.0.0.1:9: connection refused: refused 6 times in 31 s, retries spent',
		});
	});

	it('leaves every failure the node did not stop re-sending as it is', () => {
		const refused = failureFromAnswer(
			{ statusCode: 403, headers: {}, body: Buffer.from('') },
			request,
			now,
		)!;
		expect(rateLimitAdvice(refused, adaptive)).toBe(refused);
		expect(rateLimitAdvice(askedToWait(120_000), adaptive)).toEqual(askedToWait(120_000));
		const unstopped = { ...tooMany('1'), stopped: undefined };
		expect(rateLimitAdvice(unstopped, adaptive)).toBe(unstopped);
	});
});

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
