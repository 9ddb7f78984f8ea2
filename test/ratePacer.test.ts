import { describe, expect, it } from 'vitest';

import { RatePacer } from '../nodes/TriggerAutomation/sending/ratePacer';

/** A pacer that counted `accepted` answers from time 0 and resumed from a pause at `at`. */
function pacedAfter(accepted: number, at: number): RatePacer {
	const pacer = new RatePacer(0);
	for (let k = 0; k < accepted; k++) pacer.acceptedOne();
	pacer.resumed(at, 1000);
	return pacer;
}

describe('the rate pace of Sending → Adaptive after the service asked to wait', () => {
	it('sets no pace until the service first asks to wait: every request may start at once', () => {
		const pacer = new RatePacer(0);
		for (let k = 0; k < 100; k++) pacer.acceptedOne();
		expect(Array.from({ length: 5 }, () => pacer.waitMs(10))).toEqual([0, 0, 0, 0, 0]);
	});

	it('after a pause, starts requests at the rate accepted since the last: 10 in 2 s, one per 200 ms', () => {
		const pacer = pacedAfter(10, 2000);
		expect(pacer.waitMs(2000)).toBe(0);
		expect(pacer.waitMs(2000)).toBe(200);
		expect(pacer.waitMs(2150)).toBe(50);
		expect(pacer.waitMs(2200)).toBe(0);
		expect(pacer.waitMs(2200)).toBe(200);
	});

	it('after a pause in which nothing was accepted, starts one request per pause the service asked for', () => {
		const pacer = pacedAfter(0, 1500);
		expect(pacer.waitMs(1500)).toBe(0);
		expect(pacer.waitMs(1500)).toBe(1000);
	});

	it('counts from a restart (executions sending again after none did), not across the quiet time', () => {
		const pacer = new RatePacer(0);
		for (let k = 0; k < 3; k++) pacer.acceptedOne();
		pacer.restart(60_000);
		for (let k = 0; k < 8; k++) pacer.acceptedOne();
		pacer.resumed(62_000, 1000);
		expect(pacer.waitMs(62_000)).toBe(0);
		expect(pacer.waitMs(62_000)).toBe(250);
	});

	it('quickens by one request/s for every second of answers accepted at its pace (additive increase)', () => {
		const pacer = pacedAfter(5, 1000);
		for (let k = 0; k < 5; k++) pacer.acceptedOne();
		pacer.waitMs(1000);
		expect(1000 / pacer.waitMs(1000)).toBeCloseTo(6, 0);
	});

	it('saves no idle time up: after a quiet spell, requests start one gap apart again', () => {
		const pacer = pacedAfter(10, 2000);
		expect(pacer.waitMs(2000)).toBe(0);
		expect(pacer.waitMs(9000)).toBe(0);
		expect(pacer.waitMs(9000)).toBe(200);
	});

	it('learns afresh at each pause: the count starts again from the last resume', () => {
		const pacer = pacedAfter(10, 2000);
		for (let k = 0; k < 2; k++) pacer.acceptedOne();
		pacer.resumed(3000, 1000);
		expect(pacer.waitMs(3000)).toBe(0);
		expect(pacer.waitMs(3000)).toBe(500);
	});
});
