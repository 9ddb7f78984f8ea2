import { describe, expect, it } from 'vitest';

import type { RateLimitedSending } from '../../../../nodes/TriggerAutomation/answer/rateLimited';
import {
	askedToWait,
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
			resend: false,
			message:
				'Not sent: the service asked to wait 3600 s more (Retry-After), longer than this node waits',
		});
		expect(askedToWait(3_599_001).description).toMatch(/^Run this item again after that wait\./);
	});
});

describe('a 429 the item failed with: advice that fits how it was sent, naming no mode not in use', () => {
	const tooMany = (retryAfter?: string) =>
		failureFromAnswer(
			{
				statusCode: 429,
				headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter },
				body: Buffer.from('{"message":"slow down"}'),
			},
			request,
			now,
		)!;
	const adaptive: RateLimitedSending = {
		sending: 'adaptive',
		batchSize: 1,
		retries: 5,
		turnedAway: 6,
	};
	const MODES = /Sending|Adaptive|One at a Time|Fixed Batches|Batch/;

	it('Adaptive, retries spent while the service asked to wait: raise Retries When Not Accepted or run later, then what the service said', () => {
		const { description } = rateLimitAdvice(tooMany('1'), adaptive);
		expect(description).toBe(
			'Raise Options → Retries When Not Accepted (now 5), or run this item again later, when the service is less busy: it turned this item away 6 times. The service said: slow down',
		);
		expect(description).not.toMatch(MODES);
	});

	it('One at a Time (batches of one), retries spent: the same, no batch advice', () => {
		const { description } = rateLimitAdvice(tooMany(), {
			...adaptive,
			sending: 'batches',
			turnedAway: 1,
			retries: 3,
		});
		expect(description).toMatch(/^Raise Options → Retries When Not Accepted \(now 3\),/);
		expect(description).toContain('turned this item away once.');
		expect(description).not.toMatch(MODES);
	});

	it('Fixed Batches of 50 at once, retries spent: also smaller batches or a longer interval', () => {
		const { description } = rateLimitAdvice(tooMany('1'), {
			sending: 'batches',
			batchSize: 50,
			retries: 5,
			turnedAway: 6,
		});
		expect(description).toContain('Raise Options → Retries When Not Accepted (now 5)');
		expect(description).toContain(
			"Fixed Batches sends 50 requests at once: fewer per batch (Options → Batching → Items per Batch) or a longer Batch Interval (Ms) keep under the service's limit.",
		);
	});

	it('Retries When Not Accepted 0: raise it, as nothing was sent again', () => {
		const { description } = rateLimitAdvice(tooMany('1'), {
			...adaptive,
			retries: 0,
			turnedAway: 1,
		});
		expect(description).toMatch(
			/^Raise Options → Retries When Not Accepted \(now 0\) to have the node wait and send a turned-away item again, or run this item again later\./,
		);
	});

	it('a Retry-After longer than the node waits: run it after that wait, whatever the mode or the retries', () => {
		for (const how of [adaptive, { ...adaptive, sending: 'batches' as const, batchSize: 50 }]) {
			const { description } = rateLimitAdvice(tooMany('120'), how);
			expect(description).toBe(
				'Run this item again after that wait: the service asked to wait 120 s (Retry-After), longer than the 60 s this node waits. The service said: slow down',
			);
		}
	});

	it('leaves every other failure as it is', () => {
		const refused = failureFromAnswer(
			{ statusCode: 403, headers: {}, body: Buffer.from('') },
			request,
			now,
		)!;
		expect(rateLimitAdvice(refused, adaptive)).toBe(refused);
		expect(rateLimitAdvice(askedToWait(120_000), adaptive)).toEqual(askedToWait(120_000));
	});
});
