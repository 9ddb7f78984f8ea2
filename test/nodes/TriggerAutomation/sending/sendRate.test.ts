/**
 * The rate of Sending → Adaptive, with a clock the test holds: every time is passed in.
 */
import { describe, expect, it } from 'vitest';

import {
	GROWTH,
	LEAST_KEPT,
	MIN_RAMP_ROUND_TRIP_MS,
	RAMP_UP,
	SHORT_PAUSE_MS,
	SendRate,
} from '../../../../nodes/TriggerAutomation/sending/sendRate';

/** How many requests may start at `now` (each start taken), up to `most`. */
function startsAt(rate: SendRate, now: number, most = 10_000): number {
	let starts = 0;
	while (starts < most && rate.waitMs(now) === 0) starts++;
	return starts;
}

/** Starts from `from` to `to`, asking every millisecond (as the gate's timer does). */
function startsBetween(rate: SendRate, from: number, to: number): number {
	let starts = 0;
	for (let now = from; now < to; now++) starts += startsAt(rate, now);
	return starts;
}

/** A rate that has learned `perSecond` at a Retry-After pause of 1 s that ended at 1000. */
function learned(perSecond: number): SendRate {
	const rate = new SendRate(0);
	for (let k = 0; k < perSecond; k++) rate.acceptedOne(0, 0);
	rate.pushedBack(0, 0, 1000);
	rate.waitMs(1000);
	return rate;
}

describe('SendRate', () => {
	it('until the service pushes back there is no rate: every start may go at once', () => {
		const rate = new SendRate(0);
		expect(startsAt(rate, 0)).toBe(10_000);
		for (let k = 0; k < 500; k++) rate.acceptedOne(0, 50);
		expect(rate.perSecond).toBe(Number.POSITIVE_INFINITY);
	});

	it('a Retry-After pauses every start until it ends', () => {
		const rate = new SendRate(0);
		rate.pushedBack(0, 5, 1000);
		expect(rate.waitMs(6)).toBe(999);
		expect(rate.waitMs(1004)).toBe(1);
		expect(rate.waitMs(1005)).toBe(0);
	});

	it('a push-back without Retry-After pauses every start for SHORT_PAUSE_MS', () => {
		const rate = new SendRate(0);
		rate.pushedBack(0, 5);
		expect(rate.waitMs(6)).toBe(SHORT_PAUSE_MS - 1);
		expect(rate.waitMs(5 + SHORT_PAUSE_MS)).toBe(0);
	});

	it('push-backs count once per round trip: answers to requests sent before the last one tell of the rate before it', () => {
		const rate = new SendRate(0);
		rate.pushedBack(10, 20, 1000);
		rate.pushedBack(15, 21, 5000);
		expect(rate.waitMs(1020)).toBe(0);
		rate.pushedBack(19, 1030, 5000);
		expect(rate.waitMs(1031)).toBeLessThan(1000);
		rate.pushedBack(1025, 1040, 5000);
		expect(rate.waitMs(1041)).toBe(4999);
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

	it('a pause learns at least LEAST_KEPT of the rate the pause before learned: one answer in a short spell is no rate', () => {
		const rate = learned(40);
		// Others spent the room soon after the pause ended: one answer, then pushed back again.
		rate.acceptedOne(1000, 1050);
		rate.pushedBack(1030, 1060, 1000);
		expect(rate.waitMs(2060)).toBe(0);
		// One accepted over 1.06 s would be under one per pause.
		expect(rate.perSecond).toBe(40 * LEAST_KEPT);
		// More than that part is learned as counted.
		for (let k = 0; k < 30; k++) rate.acceptedOne(2061, 2150);
		rate.pushedBack(2120, 2150, 1000);
		expect(rate.waitMs(3150)).toBe(0);
		expect(rate.perSecond).toBeCloseTo(30 / 1.09, 5);
		// A limit that fell is found pause by pause.
		rate.acceptedOne(3150, 3200);
		rate.pushedBack(3190, 3210, 1000);
		expect(rate.waitMs(4210)).toBe(0);
		expect(rate.perSecond).toBeCloseTo((30 / 1.09) * LEAST_KEPT, 5);
	});

	it('a pause with nothing accepted (the service was busy): one request per pause, until one sent after it is accepted, which brings back the rate from before', () => {
		const rate = learned(40);
		// Busy: every request turned away, for three pauses.
		for (let pause = 1; pause <= 3; pause++) {
			rate.pushedBack(1000 * pause + 1, 1000 * pause + 2, 1000);
			expect(rate.waitMs(1000 * (pause + 1) + 2)).toBe(0);
			expect(rate.perSecond).toBe(1);
		}
		// An answer to a request sent before the last pause ended says nothing of now.
		rate.acceptedOne(3000, 4100);
		expect(rate.perSecond).toBe(1);
		rate.acceptedOne(4002, 4120);
		expect(rate.perSecond).toBe(40);
	});

	it('once a start at the end of a pause that learned a rate is pushed back (others spent the room meanwhile), the first start after every such pause waits one interval at the rate', () => {
		/** Learned 3/s at a pause that ended at 1000; then pushed back for a request sent at `sentAt`. */
		const pushedBackAfter = (sentAt: number) => {
			const rate = learned(3);
			// Two answers to requests sent before that pause's end: a rate to learn at the next.
			rate.acceptedOne(990, 1040);
			rate.acceptedOne(995, 1045);
			rate.pushedBack(sentAt, 1050, 1000);
			return rate;
		};
		// The request pushed back was sent before the pause's end: the next pause's end gives a start.
		const before = pushedBackAfter(999);
		expect(before.waitMs(2050)).toBe(0);
		// It was the start at the pause's end (learned() took it at 1000): the next one waits.
		const atEnd = pushedBackAfter(1000);
		expect(atEnd.waitMs(2050)).toBe(Math.ceil(1000 / atEnd.perSecond));
		expect(atEnd.perSecond).toBeCloseTo(2 / 1.05, 5);
		// And after every later pause that learned a rate.
		atEnd.acceptedOne(2600, 2650);
		atEnd.pushedBack(2610, 2700, 1000);
		expect(atEnd.waitMs(3700)).toBeGreaterThan(0);
		// A busy pause (nothing accepted during it) still probes at once.
		atEnd.pushedBack(3800, 3800, 1000);
		expect(atEnd.waitMs(4800)).toBe(0);
		expect(atEnd.perSecond).toBe(1);
	});

	it('a service busy from the first request: from the first one accepted after the pause, one start per round trip, and each answer adds RAMP_UP starts per round trip until the next push-back', () => {
		const rate = new SendRate(0);
		rate.pushedBack(0, 1, 1000);
		expect(rate.waitMs(1001)).toBe(0);
		expect(rate.perSecond).toBe(1);
		rate.acceptedOne(1001, 1051);
		// No rate is known: one start per round trip of 50 ms, not the whole cap at once.
		expect(rate.perSecond).toBe(20);
		// Items wait at every millisecond; every start is accepted 50 ms later.
		const sent: number[] = [];
		let now = 1051;
		for (; now < 1351; now++) {
			while (sent.length > 0 && sent[0] + 50 <= now) rate.acceptedOne(sent.shift()!, now);
			while (rate.waitMs(now) === 0) sent.push(now);
		}
		// About ×(1 + RAMP_UP) a round trip: 20 × 1.25^6 = 76/s after six round trips at most,
		// less as each answer comes a round trip after its start.
		expect(rate.perSecond).toBeGreaterThan(20 * (1 + RAMP_UP * 0.8) ** 5);
		expect(rate.perSecond).toBeLessThan(20 * (1 + RAMP_UP) ** 6);
		// A push-back ends it: after its pause, GROWTH per accepted answer again.
		rate.pushedBack(now, now, 1000);
		expect(rate.waitMs(now + 1000)).toBe(0);
		expect(rate.waitMs(now + 1000)).toBeGreaterThan(0);
		const learnedRate = rate.perSecond;
		rate.acceptedOne(now + 1000, now + 1050);
		expect(rate.perSecond).toBeCloseTo(learnedRate + GROWTH, 5);
	});

	it('back from a busy spell, a service that turns requests away sooner than it accepts them: the ramp counts that round trip, at least MIN_RAMP_ROUND_TRIP_MS', () => {
		const rate = new SendRate(0);
		// Turned away in 1 ms; the one accepted after the pause took 500 ms.
		rate.pushedBack(0, 1, 1000);
		expect(rate.waitMs(1001)).toBe(0);
		rate.acceptedOne(1001, 1501);
		expect(MIN_RAMP_ROUND_TRIP_MS).toBeLessThan(500);
		expect(rate.perSecond).toBe(1000 / MIN_RAMP_ROUND_TRIP_MS);
		// Held back, then accepted: RAMP_UP starts per ramp round trip more.
		startsAt(rate, 1501);
		expect(rate.waitMs(1501)).toBeGreaterThan(0);
		rate.acceptedOne(1002, 1502);
		expect(rate.perSecond).toBeCloseTo((1 + RAMP_UP) * (1000 / MIN_RAMP_ROUND_TRIP_MS), 5);
	});

	it('back from a busy spell, a service as slow to turn requests away as to accept them: one start per answer round trip', () => {
		const rate = new SendRate(0);
		// Turned away after 500 ms, as slow as the one accepted after the pause.
		rate.pushedBack(0, 500, 1000);
		expect(rate.waitMs(1500)).toBe(0);
		rate.acceptedOne(1500, 2000);
		expect(rate.perSecond).toBe(2);
		startsAt(rate, 2000);
		expect(rate.waitMs(2000)).toBeGreaterThan(0);
		rate.acceptedOne(1501, 2001);
		expect(rate.perSecond).toBeCloseTo(2 * (1 + RAMP_UP), 5);
	});

	it('while the rate holds starts back, each accepted answer adds GROWTH: a rate that rose is found within seconds', () => {
		const rate = learned(20);
		expect(rate.perSecond).toBe(20);
		// Items wait at every millisecond; every start is accepted 50 ms later.
		const sent: number[] = [];
		for (let now = 1000; now < 4000; now++) {
			while (sent.length > 0 && sent[0] + 50 <= now) rate.acceptedOne(sent.shift()!, now);
			while (rate.waitMs(now) === 0) sent.push(now);
		}
		// ×e^(GROWTH × t): about 20 × e^1.5 = 90/s after 3 s (the answers lag 50 ms).
		expect(rate.perSecond).toBeGreaterThan(20 * Math.exp(GROWTH * 2.8));
		expect(rate.perSecond).toBeLessThan(20 * Math.exp(GROWTH * 3));
	});

	it('under 1/s too, each accepted answer adds GROWTH while the rate holds starts back (asked, as the gate asks, at each answer and when its wait is over)', () => {
		const rate = new SendRate(0);
		rate.acceptedOne(0, 0);
		// A Retry-After of 2 s (a quota's window, say) with one accepted: 0.5/s.
		rate.pushedBack(0, 0, 2000);
		let start = 2000;
		expect(rate.waitMs(start)).toBe(0);
		expect(rate.perSecond).toBe(0.5);
		for (let k = 0; k < 4; k++) {
			const answered = start + 50;
			rate.acceptedOne(start, answered);
			const waitMs = rate.waitMs(answered);
			expect(waitMs).toBeGreaterThan(0);
			start = answered + waitMs;
			expect(rate.waitMs(start)).toBe(0);
		}
		// The first answer came before any start was held back.
		expect(rate.perSecond).toBeCloseTo(0.5 + 3 * GROWTH, 5);
	});

	it('no growth while the rate holds nothing back: few items are no sign of room', () => {
		const rate = learned(20);
		for (let now = 1100; now < 11_000; now += 100) {
			expect(rate.waitMs(now)).toBe(0);
			rate.acceptedOne(now, now + 50);
		}
		expect(rate.perSecond).toBe(20);
	});

	it('the rate is at least what the service accepted since the last pause, once counted over 250 ms', () => {
		const rate = new SendRate(0);
		rate.pushedBack(0, 0);
		// Nothing accepted in the short pause: one request per pause.
		expect(rate.waitMs(SHORT_PAUSE_MS)).toBe(0);
		expect(rate.perSecond).toBe(1000 / SHORT_PAUSE_MS);
		// A queue in front of the service lets 50/s through: answers every 20 ms.
		for (let now = SHORT_PAUSE_MS + 20; now <= SHORT_PAUSE_MS + 240; now += 20) {
			rate.acceptedOne(0, now);
		}
		expect(rate.perSecond).toBe(1000 / SHORT_PAUSE_MS);
		rate.acceptedOne(0, SHORT_PAUSE_MS + 260);
		// 13 answers, the first of them sent as the count started: 12 intervals in 0.26 s.
		expect(rate.perSecond).toBeCloseTo(12 / 0.26, 5);
	});

	it('a pause in the items saves up no more than a 10 ms burst, after a time with none too', () => {
		const rate = learned(100);
		// 10 ms' worth at 100/s would be one start: a burst holds two, then one per gap.
		expect(startsAt(rate, 60_000)).toBe(2);
		expect(rate.waitMs(60_000)).toBe(10);
		// Executions that send after a time with none go on at the rate learned.
		rate.restart(120_000);
		expect(startsAt(rate, 120_000)).toBe(2);
		expect(rate.waitMs(120_000)).toBe(10);
	});

	it('counting starts again when executions send after a time with none: that time is no rate', () => {
		const rate = learned(10);
		rate.restart(60_000);
		for (let k = 0; k < 50; k++) rate.acceptedOne(60_050, 60_100);
		rate.pushedBack(60_100, 60_100, 1000);
		rate.waitMs(61_100);
		expect(rate.perSecond).toBeCloseTo(50 / 1.1, 5);
	});
});
