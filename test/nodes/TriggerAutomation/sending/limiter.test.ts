/**
 * Sending → Adaptive's rate limiter with a clock the test holds (vitest's fake timers drive n8n's
 * sleep and Date.now): the cap, the pause and the rate after it, the quota's budget and reset, the
 * closure, the rotation, and that nothing is kept once the executions end. In n8n's engine against
 * real services: limiter.engine.test.ts, quota.engine.test.ts.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it, vi } from 'vitest';

import { askedToWait, quotaSpent } from '../../../../nodes/TriggerAutomation/answer/rateLimited';
import type { Attempt } from '../../../../nodes/TriggerAutomation/request/attempt';
import { MAX_IN_FLIGHT, MAX_WAIT_MS } from '../../../../nodes/TriggerAutomation/limits';
import { ExecutionLane } from '../../../../nodes/TriggerAutomation/sending/executionLane';
import {
	GROWTH,
	SHORT_PAUSE_MS,
	ServiceLimiter,
} from '../../../../nodes/TriggerAutomation/sending/limiter';
import {
	accepted,
	acceptedTelling,
	holdTheClock,
	microtasks,
	newService,
	refused,
	request,
	turnedAway,
} from '../../../support/limiterLanes';

holdTheClock();

/** A 429 telling the quota spent until `resetInMs` from now, as Retry-After says too. */
const spentTelling = (resetInMs: number): Attempt => ({
	...refused(resetInMs),
	quota: { remaining: 0, resetAt: Date.now() + resetInMs, header: 'RateLimit' },
});

/** `count` requests through `lane`, each logged with the time it started (from `t0`). */
function requests(lane: ExecutionLane, count: number, log: number[], t0 = Date.now()) {
	const labels: string[] = [];
	const sent = Array.from({ length: count }, (_, k) => request(lane, labels, String(k)));
	const record = () => {
		while (log.length < labels.length) log.push(Date.now() - t0);
	};
	return { sent, record };
}

/** Advances the clock `ms` in 1 ms steps, recording each start when it happens. */
async function advance(ms: number, record: () => void) {
	await microtasks();
	record();
	for (let t = 0; t < ms; t++) {
		await vi.advanceTimersByTimeAsync(1);
		record();
	}
}

describe('the rate', () => {
	it('is off until the service pushes back: MAX_IN_FLIGHT requests at once, an answer lets the next go', async () => {
		const lane = new ExecutionLane(newService(), undefined);
		const log: string[] = [];
		const sent = Array.from({ length: MAX_IN_FLIGHT + 5 }, (_, k) => request(lane, log, `${k}`));
		await microtasks();
		expect(log).toHaveLength(MAX_IN_FLIGHT);
		sent[0].answer(accepted);
		await sent[0].done;
		await microtasks();
		expect(log).toHaveLength(MAX_IN_FLIGHT + 1);
		expect(vi.getTimerCount()).toBe(0);
		lane.close();
	});

	it('a Retry-After pauses every execution until it ends; then the executions take turns', async () => {
		const service = newService();
		const a = new ExecutionLane(service, undefined);
		const b = new ExecutionLane(service, undefined);
		await turnedAway(a, 1000);
		const log: string[] = [];
		for (const k of [0, 1]) {
			request(a, log, `a${k}`);
			request(b, log, `b${k}`);
		}
		await vi.advanceTimersByTimeAsync(999);
		expect(log).toEqual([]);
		await vi.advanceTimersByTimeAsync(1);
		// Nothing was accepted before the pause (busy): one request per pause until one is; the
		// execution that sent last goes after the other.
		expect(log).toEqual(['b0']);
		await vi.advanceTimersByTimeAsync(3000);
		expect(log).toEqual(['b0', 'a0', 'b1', 'a1']);
		a.close();
		b.close();
	});

	it('a push-back without Retry-After pauses every start for SHORT_PAUSE_MS', async () => {
		const lane = new ExecutionLane(newService(), undefined);
		const first = request(lane, [], 'first');
		await microtasks();
		first.answer(refused());
		await first.done;
		const log: string[] = [];
		request(lane, log, 'next');
		await vi.advanceTimersByTimeAsync(SHORT_PAUSE_MS - 1);
		expect(log).toEqual([]);
		await vi.advanceTimersByTimeAsync(1);
		expect(log).toEqual(['next']);
		lane.close();
	});

	it('push-backs to requests sent before the pause began are the same one: the pause is not made longer', async () => {
		const lane = new ExecutionLane(newService(), undefined);
		const [a, b] = [request(lane, [], 'a'), request(lane, [], 'b')];
		await microtasks();
		a.answer(refused(1000));
		await a.done;
		await vi.advanceTimersByTimeAsync(500);
		b.answer(refused(1000));
		await b.done;
		const log: string[] = [];
		request(lane, log, 'next');
		await vi.advanceTimersByTimeAsync(500);
		expect(log).toEqual(['next']);
		lane.close();
	});

	it("after a pause the rate is what the service accepted from the last pause's end to this one's", async () => {
		const lane = new ExecutionLane(newService(), undefined);
		const t0 = Date.now();
		const opening = Array.from({ length: 5 }, (_, k) => request(lane, [], `${k}`));
		await microtasks();
		for (const sent of opening.slice(0, 4)) sent.answer(accepted);
		await vi.advanceTimersByTimeAsync(100);
		opening[4].answer(refused(900));
		await opening[4].done;
		// 4 accepted from t0 to the pause's end (1 s): 4/s, the first start at once.
		const log: number[] = [];
		const { sent, record } = requests(lane, 3, log, t0);
		await advance(1600, record);
		expect(log).toEqual([1000, 1250, 1500]);
		for (const each of sent) each.answer(accepted);
		lane.close();
	});

	it('back from a busy spell (nothing accepted), each accepted answer adds one start per round trip until the next push-back', async () => {
		const lane = new ExecutionLane(newService(), undefined);
		await turnedAway(lane, 1000);
		const t0 = Date.now();
		const log: number[] = [];
		const { sent, record } = requests(lane, 4, log, t0);
		// One per pause (1/s) until one is accepted.
		await advance(1000, record);
		expect(log).toEqual([1000]);
		await advance(100, record);
		sent[0].answer(accepted);
		await sent[0].done;
		// Answered in 100 ms: +10/s, so 11/s from here.
		await advance(200, record);
		expect(log[1]).toBeLessThanOrEqual(1100 + Math.ceil(1000 / 11));
		expect(log).toHaveLength(4);
		for (const each of sent) each.answer(accepted);
		lane.close();
	});

	it('while the rate holds starts back, each accepted answer adds GROWTH', async () => {
		const lane = new ExecutionLane(newService(), undefined);
		const t0 = Date.now();
		const opening = [request(lane, [], 'a'), request(lane, [], 'b')];
		await microtasks();
		opening[0].answer(accepted);
		await opening[0].done;
		opening[1].answer(refused(1000));
		await opening[1].done;
		// 1 accepted over the pause's second: 1/s. The next start is held back: each answer adds
		// GROWTH.
		const log: number[] = [];
		const { sent, record } = requests(lane, 3, log, t0);
		await advance(1000, record);
		expect(log).toEqual([1000]);
		sent[0].answer(accepted);
		await advance(1000, record);
		const second = 1000 + Math.ceil(1000 / (1 + GROWTH));
		expect(log).toEqual([1000, second]);
		sent[1].answer(accepted);
		await advance(1000, record);
		expect(log).toEqual([1000, second, second + Math.ceil(1000 / (1 + 2 * GROWTH))]);
		sent[2].answer(accepted);
		lane.close();
	});
});

describe('a wait longer than the node waits', () => {
	it('a Retry-After over it holds no execution: each item is let go unsent, told the wait left', async () => {
		const service = newService();
		const a = new ExecutionLane(service, undefined);
		const b = new ExecutionLane(service, undefined);
		await turnedAway(a, MAX_WAIT_MS + 1000);
		const log: string[] = [];
		const unsent = { failure: askedToWait(MAX_WAIT_MS + 1000) };
		expect(await request(b, log, 'b').done).toEqual(unsent);
		expect(await request(a, log, 'a').done).toEqual(unsent);
		expect(log).toEqual([]);
		a.close();
		b.close();
	});

	it('a Retry-After of exactly it holds every execution, refusing none', async () => {
		const lane = new ExecutionLane(newService(), undefined);
		await turnedAway(lane, MAX_WAIT_MS);
		const log: string[] = [];
		request(lane, log, 'next');
		await vi.advanceTimersByTimeAsync(MAX_WAIT_MS - 1);
		expect(log).toEqual([]);
		await vi.advanceTimersByTimeAsync(1);
		expect(log).toEqual(['next']);
		lane.close();
	});
});

describe('the quota told', () => {
	it('is a budget: what remains less what is in flight; at 0, nothing until the reset; then one request alone until its answer tells the quota anew', async () => {
		const service = newService();
		const a = new ExecutionLane(service, undefined);
		const b = new ExecutionLane(service, undefined);
		const first = request(a, [], 'first');
		await microtasks();
		first.answer(acceptedTelling(3, 5_000));
		await first.done;
		const log: string[] = [];
		const sent = ['a0', 'b0', 'a1', 'b1', 'a2'].map((label) =>
			request(label.startsWith('a') ? a : b, log, label),
		);
		await microtasks();
		expect(log).toEqual(['a0', 'b0', 'a1']);
		// An older answer (more remaining) raises nothing; the freshest says none remains.
		sent[1].answer(acceptedTelling(0, 5_000));
		sent[0].answer(acceptedTelling(1, 5_000));
		sent[2].answer(acceptedTelling(2, 5_000));
		await vi.advanceTimersByTimeAsync(5_000 - 1);
		expect(log).toEqual(['a0', 'b0', 'a1']);
		await vi.advanceTimersByTimeAsync(1);
		expect(log).toEqual(['a0', 'b0', 'a1', 'b1']);
		sent[3].answer(acceptedTelling(4, 5_000));
		await microtasks();
		expect(log).toEqual(['a0', 'b0', 'a1', 'b1', 'a2']);
		sent[4].answer(accepted);
		a.close();
		b.close();
	});

	it("keeps the earliest reset any answer of the window told: each is a time the window can't end after", async () => {
		const lane = new ExecutionLane(newService(), undefined);
		const [x, y] = [request(lane, [], 'x'), request(lane, [], 'y')];
		await microtasks();
		x.answer(acceptedTelling(0, 300));
		y.answer(acceptedTelling(0, 1000));
		await Promise.all([x.done, y.done]);
		const log: string[] = [];
		request(lane, log, 'next');
		await vi.advanceTimersByTimeAsync(300);
		expect(log).toEqual(['next']);
		lane.close();
	});

	it('a 429 telling the quota spent pauses nothing of the rate: at the reset, the next goes, and the one after with its answer', async () => {
		const lane = new ExecutionLane(newService(), undefined);
		const first = request(lane, [], 'first');
		await microtasks();
		first.answer(spentTelling(1_000));
		await first.done;
		const log: string[] = [];
		const sent = [request(lane, log, 'a'), request(lane, log, 'b')];
		await vi.advanceTimersByTimeAsync(1_000);
		expect(log).toEqual(['a']);
		sent[0].answer(acceptedTelling(5, 1_000));
		await sent[0].done;
		// A pause would have taught the rate one request a second.
		await microtasks();
		expect(log).toEqual(['a', 'b']);
		sent[1].answer(accepted);
		lane.close();
	});

	it('spent until a reset longer than the node waits: every waiting item goes unsent, told when it resets, once no answer is awaited', async () => {
		const lane = new ExecutionLane(newService(), undefined);
		const first = request(lane, [], 'first');
		await microtasks();
		first.answer(acceptedTelling(1, MAX_WAIT_MS + 2000));
		await first.done;
		const log: string[] = [];
		const [last, ...waiting] = ['last', 'b', 'c'].map((label) => request(lane, log, label));
		await microtasks();
		expect(log).toEqual(['last']);
		await vi.advanceTimersByTimeAsync(1_000);
		last.answer(acceptedTelling(0, MAX_WAIT_MS + 1));
		const resetAt = Date.now() + MAX_WAIT_MS + 1;
		const unsent = { failure: quotaSpent(resetAt, 'X-RateLimit-Remaining', Date.now()) };
		expect(await Promise.all(waiting.map(async ({ done }) => await done))).toEqual([
			unsent,
			unsent,
		]);
		expect(log).toEqual(['last']);
		lane.close();
	});
});

describe('what the limiter keeps', () => {
	it('every turn comes back, whatever became of its request, and no timer is left', async () => {
		const service = newService();
		const first = new ExecutionLane(service, undefined);
		const failing = Array.from(
			{ length: MAX_IN_FLIGHT },
			async () =>
				await first
					.attempt(async () => await Promise.reject(new Error('no answer')))
					.catch((error: Error) => error.message),
		);
		const second = new ExecutionLane(service, undefined);
		const log: string[] = [];
		for (let k = 0; k < 3; k++) request(second, log, 'second');
		expect(await Promise.all(failing)).toEqual(Array(MAX_IN_FLIGHT).fill('no answer'));
		await microtasks();
		expect(log).toHaveLength(3);
		first.close();
		second.close();
		expect(vi.getTimerCount()).toBe(0);
	});

	it('nothing per service once its executions end: 10,000 services sent to, no limiter left, memory bounded', async () => {
		vi.useRealTimers();
		const sendTo = async (service: string) => {
			const lane = new ExecutionLane(service, undefined);
			await lane.attempt(async () => await Promise.resolve(refused(10)));
			lane.close();
		};
		setFlagsFromString('--expose-gc');
		const gc = runInNewContext('gc') as () => void;
		for (let k = 0; k < 1_000; k++) await sendTo(`http://warm-${k}.test`);
		gc();
		const before = process.memoryUsage().heapUsed;
		for (let k = 0; k < 10_000; k++) await sendTo(`http://service-${k}.test`);
		gc();
		expect(ServiceLimiter.openCount).toBe(0);
		// Kept per service, 10,000 limiters (each over 500 bytes) would hold over 5 MB.
		expect(process.memoryUsage().heapUsed - before).toBeLessThan(1e6);
	});
});
