/**
 * The gate of Sending → Adaptive with a clock the test holds (vitest's fake timers drive n8n's
 * sleep and Date.now): who goes next, when, and what is given back. The end-to-end properties (all
 * accepted, none twice, in n8n's engine) are in serviceGate.engine.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { MAX_RETRY_WAIT_MS } from '../../../../nodes/TriggerAutomation/answer/failure';
import {
	ExecutionLane,
	MAX_IN_FLIGHT,
	STARTS_PER_TURN,
} from '../../../../nodes/TriggerAutomation/sending/serviceGate';
import { rateLimited } from '../../../support/failures';

let services = 0;
/** A service of its own for each test: gates are kept per service for the process's life. */
const newService = () => `http://gate-${++services}.test`;

/** Logs `label` once the promise (a start or a re-send's turn) resolves. */
const track = (log: string[], label: string, turn: Promise<void>) =>
	void turn.then(() => log.push(label));

/** Lets the promises already resolved run on, firing no timer. */
const microtasks = async () => {
	for (let k = 0; k < 10; k++) await Promise.resolve();
};

beforeEach(() => {
	vi.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => {
	vi.useRealTimers();
});

describe('ServiceGate', () => {
	it('a Retry-After holds every execution until it ends; then the executions take turns', async () => {
		const service = newService();
		const a = new ExecutionLane(service, undefined);
		const b = new ExecutionLane(service, undefined);
		await a.start();
		a.settled(Date.now(), rateLimited(1000));
		const log: string[] = [];
		for (const k of [0, 1]) {
			track(log, `a${k}`, a.start());
			track(log, `b${k}`, b.start());
		}
		await vi.advanceTimersByTimeAsync(999);
		expect(log).toEqual([]);
		// Nothing was accepted before the pause (the service was busy): one request per pause.
		await vi.advanceTimersByTimeAsync(1);
		expect(log).toEqual(['b0']);
		await vi.advanceTimersByTimeAsync(3000);
		expect(log).toEqual(['b0', 'a0', 'b1', 'a1']);
		a.close();
		b.close();
	});

	it('a Retry-After longer than the node waits holds no execution: each item is let go and told the wait left', async () => {
		const service = newService();
		const a = new ExecutionLane(service, undefined);
		const b = new ExecutionLane(service, undefined);
		await a.start();
		expect(b.refusedForMs).toBeLessThanOrEqual(0);
		a.settled(Date.now(), rateLimited(MAX_RETRY_WAIT_MS + 1000));
		const log: string[] = [];
		track(log, 'b', b.start());
		track(log, 'a', a.start());
		await vi.advanceTimersByTimeAsync(0);
		expect(log).toEqual(['b', 'a']);
		expect(b.refusedForMs).toBe(MAX_RETRY_WAIT_MS + 1000);
		await vi.advanceTimersByTimeAsync(MAX_RETRY_WAIT_MS + 1000);
		expect(a.refusedForMs).toBe(0);
		a.close();
		b.close();
	});

	it('a Retry-After of exactly the longest the node waits holds every execution, refusing none', async () => {
		const service = newService();
		const lane = new ExecutionLane(service, undefined);
		await lane.start();
		lane.settled(Date.now(), rateLimited(MAX_RETRY_WAIT_MS));
		const log: string[] = [];
		track(log, 'next', lane.start());
		await vi.advanceTimersByTimeAsync(MAX_RETRY_WAIT_MS - 1);
		expect(log).toEqual([]);
		expect(lane.refusedForMs).toBeLessThanOrEqual(0);
		await vi.advanceTimersByTimeAsync(1);
		expect(log).toEqual(['next']);
		lane.close();
	});

	it("a re-send waits its time, then goes before the execution's new items", async () => {
		const lane = new ExecutionLane(newService(), undefined);
		await lane.start();
		lane.settled(Date.now(), rateLimited(1000));
		const log: string[] = [];
		track(log, 're-send', lane.turn(1000));
		track(log, 'new 1', lane.start());
		track(log, 'new 2', lane.start());
		await vi.advanceTimersByTimeAsync(1000);
		expect(log).toEqual(['re-send']);
		await vi.advanceTimersByTimeAsync(2000);
		expect(log).toEqual(['re-send', 'new 1', 'new 2']);
		lane.close();
	});

	it('no more than MAX_IN_FLIGHT requests at once; an answer lets the next one go', async () => {
		const lane = new ExecutionLane(newService(), undefined);
		const log: string[] = [];
		for (let k = 0; k < MAX_IN_FLIGHT + 5; k++) track(log, String(k), lane.start());
		await vi.advanceTimersByTimeAsync(1000);
		expect(log).toHaveLength(MAX_IN_FLIGHT);
		lane.settled(Date.now() - 50);
		await vi.advanceTimersByTimeAsync(10);
		expect(log).toHaveLength(MAX_IN_FLIGHT + 1);
		lane.close();
	});

	it('a burst starts STARTS_PER_TURN requests, then more once an answer is read or the event loop turns', async () => {
		const lane = new ExecutionLane(newService(), undefined);
		const log: string[] = [];
		for (let k = 0; k < 3 * STARTS_PER_TURN; k++) track(log, String(k), lane.start());
		await microtasks();
		expect(log).toHaveLength(STARTS_PER_TURN);
		lane.settled(Date.now());
		await microtasks();
		expect(log).toHaveLength(2 * STARTS_PER_TURN);
		await vi.advanceTimersByTimeAsync(0);
		expect(log).toHaveLength(3 * STARTS_PER_TURN);
		lane.close();
	});

	it('Stop lets the waiting items of its execution go at once; the other execution keeps its turn', async () => {
		const service = newService();
		const stop = new AbortController();
		const stopped = new ExecutionLane(service, stop.signal);
		const other = new ExecutionLane(service, undefined);
		await stopped.start();
		stopped.settled(Date.now(), rateLimited(1000));
		const log: string[] = [];
		track(log, 'stopped', stopped.start());
		track(log, 'stopped re-send', stopped.turn(1000));
		track(log, 'other', other.start());
		stop.abort();
		await vi.advanceTimersByTimeAsync(0);
		expect(log).toEqual(['stopped', 'stopped re-send']);
		stopped.close();
		await vi.advanceTimersByTimeAsync(1000);
		expect(log).toEqual(['stopped', 'stopped re-send', 'other']);
		other.close();
	});

	it('no timer runs while an execution only waits for answers', async () => {
		const lane = new ExecutionLane(newService(), undefined);
		await lane.start();
		await vi.advanceTimersByTimeAsync(100);
		expect(vi.getTimerCount()).toBe(0);
		lane.settled(Date.now() - 50);
		expect(vi.getTimerCount()).toBe(0);
		lane.close();
	});

	it('close gives back the places its execution still holds, and leaves no timer behind', async () => {
		const service = newService();
		const first = new ExecutionLane(service, undefined);
		const log: string[] = [];
		for (let k = 0; k < MAX_IN_FLIGHT; k++) track(log, 'first', first.start());
		await vi.advanceTimersByTimeAsync(1000);
		expect(log).toHaveLength(MAX_IN_FLIGHT);
		first.close();
		const second = new ExecutionLane(service, undefined);
		for (let k = 0; k < MAX_IN_FLIGHT; k++) track(log, 'second', second.start());
		await vi.advanceTimersByTimeAsync(1000);
		expect(log.filter((label) => label === 'second')).toHaveLength(MAX_IN_FLIGHT);
		second.close();
		expect(vi.getTimerCount()).toBe(0);
	});
});
