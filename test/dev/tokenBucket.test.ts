/**
 * The rate limit the bench's services and the sending tests apply (dev/tokenBucket.ts), with a
 * clock the test controls: a second's worth at once, refilled continuously, and a limit that moves.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { TokenBucket } from '../../dev/tokenBucket';

/** How many of `count` requests arriving now it takes. */
const admitted = (bucket: TokenBucket, count: number) =>
	Array.from({ length: count }, () => bucket.admit()).filter(Boolean).length;

describe('a token bucket holding one second of its rate', () => {
	beforeEach(() => vi.useFakeTimers({ now: 1_000_000 }));
	afterEach(() => vi.useRealTimers());

	it('takes one second of its rate at once, then refills at the rate', () => {
		const bucket = new TokenBucket(20);
		expect(admitted(bucket, 30)).toBe(20);
		vi.advanceTimersByTime(500);
		expect(admitted(bucket, 30)).toBe(10);
	});

	it('a rise: what is left stays, and it refills at the new rate from then on', () => {
		const bucket = new TokenBucket(20);
		expect(admitted(bucket, 15)).toBe(15);
		bucket.setRate(100);
		expect(admitted(bucket, 10)).toBe(5);
		vi.advanceTimersByTime(500);
		expect(admitted(bucket, 100)).toBe(50);
	});

	it('a drop: at most one second of the new rate is left', () => {
		const bucket = new TokenBucket(100);
		bucket.setRate(20);
		expect(admitted(bucket, 100)).toBe(20);
		vi.advanceTimersByTime(1000);
		expect(admitted(bucket, 100)).toBe(20);
	});

	it('refill makes it full again at the rate it has now', () => {
		const bucket = new TokenBucket(100);
		bucket.setRate(20);
		admitted(bucket, 20);
		bucket.refill();
		expect(admitted(bucket, 100)).toBe(20);
	});
});
