/**
 * The rate of Sending → Adaptive, with a clock the test holds: every time is passed in.
 */
import { describe, expect, it } from 'vitest';

import { START_RATE, SendRate } from '../../../../nodes/TriggerAutomation/sending/sendRate';

/** How many requests may start at `now` (each start taken). */
function startsAt(rate: SendRate, now: number): number {
	let starts = 0;
	while (rate.waitMs(now) === 0) starts++;
	return starts;
}

/** Starts from `from` to `to`, asking every millisecond (as the gate's timer does). */
function startsBetween(rate: SendRate, from: number, to: number): number {
	let starts = 0;
	for (let now = from; now < to; now++) starts += startsAt(rate, now);
	return starts;
}

describe('SendRate', () => {
	it('before the service pushes back, starts are spread at START_RATE, a few at once', () => {
		const rate = new SendRate(0);
		expect(startsAt(rate, 0)).toBe((START_RATE * 10) / 1000);
		expect(startsBetween(rate, 1, 1001)).toBe(START_RATE);
	});

	it('a Retry-After pauses every start until it ends', () => {
		const rate = new SendRate(0);
		startsAt(rate, 0);
		rate.pushedBack(0, 5, 1000);
		expect(rate.waitMs(6)).toBe(999);
		expect(rate.waitMs(1004)).toBe(1);
		expect(rate.waitMs(1005)).toBe(0);
	});

	it('after a pause, the rate is what the service accepted from the last pause to the end of this one', () => {
		const rate = new SendRate(0);
		for (let k = 0; k < 100; k++) rate.acceptedOne(0, 50);
		rate.pushedBack(60, 60, 1000);
		expect(rate.waitMs(1060)).toBe(0);
		// 100 accepted over 1.06 s.
		expect(rate.perSecond).toBeCloseTo(100 / 1.06, 5);
		expect(startsBetween(rate, 1061, 2061)).toBe(94);
	});

	it('a pause with nothing accepted (the service was busy): one request per pause, until one sent after it is accepted, which brings back the rate from before', () => {
		const rate = new SendRate(0);
		for (let k = 0; k < 40; k++) rate.acceptedOne(0, 50);
		rate.pushedBack(60, 60, 1000);
		rate.waitMs(1060);
		expect(rate.perSecond).toBeCloseTo(40 / 1.06, 5);
		// Busy: every request turned away, for three pauses.
		for (let pause = 1; pause <= 3; pause++) {
			rate.pushedBack(60 + 1000 * pause + 1, 60 + 1000 * pause + 2, 1000);
			expect(rate.waitMs(60 + 1000 * (pause + 1) + 2)).toBe(0);
			expect(rate.perSecond).toBe(1);
		}
		// An answer to a request sent before the last pause ended says nothing of now.
		rate.acceptedOne(3000, 4100);
		expect(rate.perSecond).toBeCloseTo(1 + 1, 5);
		rate.acceptedOne(4062, 4120);
		expect(rate.perSecond).toBeCloseTo(40 / 1.06, 5);
	});

	it('each accepted answer adds one request/s per second of answers at the rate', () => {
		const rate = new SendRate(0);
		for (let k = 0; k < 40; k++) rate.acceptedOne(0, 0);
		rate.pushedBack(0, 0, 1000);
		rate.waitMs(1000);
		expect(rate.perSecond).toBe(40);
		for (let k = 0; k < 40; k++) rate.acceptedOne(1000 + 25 * k, 1050 + 25 * k);
		expect(rate.perSecond).toBeGreaterThan(40.98);
		expect(rate.perSecond).toBeLessThan(41);
	});

	it('a push-back without Retry-After halves the rate, once for the answers to requests sent before it', () => {
		const rate = new SendRate(0);
		rate.pushedBack(10, 20);
		rate.pushedBack(15, 21);
		expect(rate.perSecond).toBe(START_RATE / 2);
		rate.pushedBack(22, 30);
		expect(rate.perSecond).toBe(START_RATE / 4);
	});

	it('idle time is not saved up: after a quiet spell, starts are spread at the rate again', () => {
		const rate = new SendRate(0);
		rate.pushedBack(0, 0);
		rate.pushedBack(1, 1);
		rate.pushedBack(2, 2);
		// An eighth of START_RATE: a burst holds two starts (10 ms would hold fewer), then one per gap.
		expect(startsAt(rate, 60_000)).toBe(2);
		expect(rate.waitMs(60_000)).toBe(Math.ceil(8000 / START_RATE));
	});

	it('counting starts again when executions send after a time with none: that time is no rate', () => {
		const rate = new SendRate(0);
		for (let k = 0; k < 10; k++) rate.acceptedOne(50, 100);
		rate.restart(60_000);
		for (let k = 0; k < 50; k++) rate.acceptedOne(60_050, 60_100);
		rate.pushedBack(60_100, 60_100, 1000);
		rate.waitMs(61_100);
		expect(rate.perSecond).toBeCloseTo(50 / 1.1, 5);
	});
});
