/**
 * The gate of Sending → Adaptive with a clock the test holds (vitest's fake timers drive n8n's
 * sleep and Date.now): who goes next, when, and that every turn comes back; one execution's lane
 * in it: executionLane.test.ts. The end-to-end properties (all accepted, none twice, in n8n's
 * engine) are in serviceGate.engine.test.ts.
 */
import { describe, expect, it, vi } from 'vitest';

import { MAX_IN_FLIGHT, MAX_WAIT_MS } from '../../../../nodes/TriggerAutomation/limits';
import { askedToWait, quotaSpent } from '../../../../nodes/TriggerAutomation/answer/rateLimited';
import { ExecutionLane } from '../../../../nodes/TriggerAutomation/sending/executionLane';
import {
	FIRST_CONTACT_DOUBLING_MS,
	FIRST_TICK_MS,
	STARTS_PER_TICK,
	gateFor,
} from '../../../../nodes/TriggerAutomation/sending/serviceGate';
import {
	accepted,
	acceptedTelling,
	holdTheClock,
	microtasks,
	newService,
	refused,
	request,
	turnedAway,
} from '../../../support/gateLanes';

holdTheClock();

describe('ServiceGate', () => {
	it('a Retry-After holds every execution until it ends; then the executions take turns', async () => {
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
		// Nothing was accepted before the pause (the service was busy): one request per pause.
		await vi.advanceTimersByTimeAsync(1);
		expect(log).toEqual(['b0']);
		await vi.advanceTimersByTimeAsync(3000);
		expect(log).toEqual(['b0', 'a0', 'b1', 'a1']);
		a.close();
		b.close();
	});

	it('a Retry-After longer than the node waits holds no execution: each item is let go unsent, told the wait left', async () => {
		const service = newService();
		const a = new ExecutionLane(service, undefined);
		const b = new ExecutionLane(service, undefined);
		await turnedAway(a, MAX_WAIT_MS + 1000);
		const log: string[] = [];
		const unsent = { failure: askedToWait(MAX_WAIT_MS + 1000) };
		expect(await request(b, log, 'b').done).toEqual(unsent);
		expect(await request(a, log, 'a').done).toEqual(unsent);
		expect(log).toEqual([]);
		await vi.advanceTimersByTimeAsync(MAX_WAIT_MS + 1000);
		request(a, log, 'a');
		await microtasks();
		expect(log).toEqual(['a']);
		a.close();
		b.close();
	});

	it('a Retry-After of exactly the longest the node waits holds every execution, refusing none', async () => {
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

	it('no more than MAX_IN_FLIGHT requests at once; an answer lets the next one go', async () => {
		const lane = new ExecutionLane(newService(), undefined);
		const log: string[] = [];
		const requests = Array.from({ length: MAX_IN_FLIGHT + 5 }, (_, k) =>
			request(lane, log, String(k)),
		);
		await vi.advanceTimersByTimeAsync(1000);
		expect(log).toHaveLength(MAX_IN_FLIGHT);
		requests[0].answer(accepted);
		await vi.advanceTimersByTimeAsync(10);
		expect(log).toHaveLength(MAX_IN_FLIGHT + 1);
		lane.close();
	});

	it('a tick starts STARTS_PER_TICK requests, an answer read in it one more, the next tick STARTS_PER_TICK more', async () => {
		const lane = new ExecutionLane(newService(), undefined);
		const log: string[] = [];
		// An accepted answer first: first contact holds nothing back from then on.
		const opening = request(lane, log, 'opening');
		await microtasks();
		opening.answer(accepted);
		await opening.done;
		const requests = Array.from({ length: 3 * STARTS_PER_TICK }, (_, k) =>
			request(lane, log, String(k)),
		);
		await microtasks();
		expect(log).toHaveLength(1 + STARTS_PER_TICK);
		requests[0].answer(accepted);
		await requests[0].done;
		expect(log).toHaveLength(2 + STARTS_PER_TICK);
		await vi.advanceTimersByTimeAsync(0);
		expect(log).toHaveLength(2 + 2 * STARTS_PER_TICK);
		for (const pending of requests) pending.answer(accepted);
		lane.close();
	});

	it("first contact: the first execution's first tick goes at once, the rest after an accepted answer or FIRST_TICK_MS", async () => {
		const [byTime, byAnswer] = [newService(), newService()].map(
			(service) => new ExecutionLane(service, undefined),
		);
		const log: string[] = [];
		const timed = Array.from({ length: 2 * STARTS_PER_TICK }, (_, k) =>
			request(byTime, log, `t${k}`),
		);
		await vi.advanceTimersByTimeAsync(FIRST_TICK_MS - 1);
		expect(log).toHaveLength(STARTS_PER_TICK);
		await vi.advanceTimersByTimeAsync(1);
		expect(log).toHaveLength(2 * STARTS_PER_TICK);

		const answered = Array.from({ length: 2 * STARTS_PER_TICK }, (_, k) =>
			request(byAnswer, log, `a${k}`),
		);
		await vi.advanceTimersByTimeAsync(FIRST_TICK_MS - 1);
		expect(log.filter((label) => label.startsWith('a'))).toHaveLength(STARTS_PER_TICK);
		answered[0].answer(accepted);
		await answered[0].done;
		await vi.advanceTimersByTimeAsync(0);
		expect(log.filter((label) => label.startsWith('a'))).toHaveLength(2 * STARTS_PER_TICK);
		for (const pending of [...timed, ...answered]) pending.answer(accepted);
		for (const lane of [byTime, byAnswer]) lane.close();
	});

	it("first contact: the first execution's first tick goes at once, the others' two for each accepted answer, until the service pushes back", async () => {
		const service = newService();
		const [a, b] = [0, 1].map(() => new ExecutionLane(service, undefined));
		const log: string[] = [];
		const as = [0, 1, 2].map((k) => request(a, log, `a${k}`));
		const bs = [0, 1, 2, 3, 4, 5].map((k) => request(b, log, `b${k}`));
		await vi.advanceTimersByTimeAsync(FIRST_CONTACT_DOUBLING_MS - 1);
		expect(log).toEqual(['a0', 'a1', 'a2']);
		as[0].answer(accepted);
		await as[0].done;
		expect(log).toEqual(['a0', 'a1', 'a2', 'b0', 'b1']);
		as[1].answer(accepted);
		await as[1].done;
		expect(log.slice(5)).toEqual(['b2', 'b3']);
		// A push-back ends it: what follows is the rate's (a pause of 0.1 s with no Retry-After).
		as[2].answer(refused());
		await as[2].done;
		await vi.advanceTimersByTimeAsync(100);
		expect(log.slice(7)).toEqual(['b4']);
		for (const pending of bs) pending.answer(accepted);
		for (const lane of [a, b]) lane.close();
	});

	it('first contact with no answer yet: time lets the others go, twice as many every FIRST_CONTACT_DOUBLING_MS', async () => {
		const service = newService();
		const [a, b] = [0, 1].map(() => new ExecutionLane(service, undefined));
		const log: string[] = [];
		const a0 = request(a, log, 'a0');
		const bs = Array.from({ length: 10 }, (_, k) => request(b, log, `b${k}`));
		const others = () => log.length - 1;
		await vi.advanceTimersByTimeAsync(FIRST_CONTACT_DOUBLING_MS - 1);
		expect(log).toEqual(['a0']);
		await vi.advanceTimersByTimeAsync(1);
		expect(others()).toBe(1);
		// 2^n − 1 by n doublings, one at a time between them.
		await vi.advanceTimersByTimeAsync(FIRST_CONTACT_DOUBLING_MS - 1);
		expect(others()).toBe(2);
		await vi.advanceTimersByTimeAsync(1);
		expect(others()).toBe(3);
		await vi.advanceTimersByTimeAsync(FIRST_CONTACT_DOUBLING_MS);
		expect(others()).toBe(7);
		await vi.advanceTimersByTimeAsync(FIRST_CONTACT_DOUBLING_MS);
		expect(others()).toBe(10);
		for (const pending of [a0, ...bs]) pending.answer(accepted);
		for (const lane of [a, b]) lane.close();
	});

	it('first contact ends with an answer that tells a quota: the quota holds back from then on', async () => {
		const service = newService();
		const [a, b] = [0, 1].map(() => new ExecutionLane(service, undefined));
		const log: string[] = [];
		const a0 = request(a, log, 'a0');
		const bs = [0, 1, 2, 3, 4].map((k) => request(b, log, `b${k}`));
		await microtasks();
		a0.answer(acceptedTelling(100, 60_000));
		await a0.done;
		await microtasks();
		// The first word lets one go; its answer, the rest.
		expect(log).toEqual(['a0', 'b0']);
		bs[0].answer(acceptedTelling(99, 60_000));
		await bs[0].done;
		await microtasks();
		expect(log).toEqual(['a0', 'b0', 'b1', 'b2', 'b3', 'b4']);
		for (const pending of bs.slice(1)) pending.answer(accepted);
		for (const lane of [a, b]) lane.close();
	});

	it('no timer runs while an execution only waits for answers', async () => {
		const lane = new ExecutionLane(newService(), undefined);
		const first = request(lane, [], 'first');
		await vi.advanceTimersByTimeAsync(100);
		expect(vi.getTimerCount()).toBe(0);
		first.answer(accepted);
		await first.done;
		expect(vi.getTimerCount()).toBe(0);
		lane.close();
	});

	it('every turn comes back, whatever became of its request: none is held after the executions end, and no timer', async () => {
		const service = newService();
		const first = new ExecutionLane(service, undefined);
		const log: string[] = [];
		const failing = Array.from(
			{ length: MAX_IN_FLIGHT },
			async () =>
				await first
					.attempt(async () => await Promise.reject(new Error('no answer')))
					.catch((error: Error) => error.message),
		);
		await vi.advanceTimersByTimeAsync(1000);
		expect(await Promise.all(failing)).toEqual(Array(MAX_IN_FLIGHT).fill('no answer'));
		first.close();
		const second = new ExecutionLane(service, undefined);
		for (let k = 0; k < MAX_IN_FLIGHT; k++) request(second, log, 'second');
		await vi.advanceTimersByTimeAsync(1000);
		expect(log).toHaveLength(MAX_IN_FLIGHT);
		second.close();
		expect(vi.getTimerCount()).toBe(0);
	});

	it('a quota told holds every execution once spent, until its reset; then one request goes alone until its answer tells the quota again', async () => {
		const service = newService();
		const a = new ExecutionLane(service, undefined);
		const b = new ExecutionLane(service, undefined);
		const first = request(a, [], 'first');
		await microtasks();
		first.answer(acceptedTelling(5, 5_000));
		await first.done;
		// After the first word, one request; of 4, half starts before the next answer tells it anew.
		const second = request(a, [], 'second');
		await microtasks();
		second.answer(acceptedTelling(4, 5_000));
		await second.done;
		const log: string[] = [];
		const requests = ['a0', 'b0', 'a1', 'b1', 'a2'].map((label) =>
			request(label.startsWith('a') ? a : b, log, label),
		);
		await microtasks();
		expect(log).toEqual(['a0', 'b0']);
		// Counted as they came: nothing is left, whatever the order the answers are read in.
		requests[1].answer(acceptedTelling(0, 5_000));
		requests[0].answer(acceptedTelling(1, 5_000));
		await vi.advanceTimersByTimeAsync(5_000 - 1);
		expect(log).toEqual(['a0', 'b0']);
		await vi.advanceTimersByTimeAsync(1);
		expect(log).toEqual(['a0', 'b0', 'a1']);
		await vi.advanceTimersByTimeAsync(10_000);
		expect(log).toEqual(['a0', 'b0', 'a1']);
		requests[2].answer(acceptedTelling(4, 5_000));
		await microtasks();
		expect(log).toEqual(['a0', 'b0', 'a1', 'b1', 'a2']);
		a.close();
		b.close();
	});

	it('a 429 telling the quota spent pauses nothing of the rate: the quota holds every start until its reset', async () => {
		const service = newService();
		const lane = new ExecutionLane(service, undefined);
		const first = request(lane, [], 'first');
		await microtasks();
		first.answer(acceptedTelling(5, 1_000));
		await first.done;
		const second = request(lane, [], 'second');
		await microtasks();
		const spent = { remaining: 0, resetAt: Date.now() + 1_000, header: 'RateLimit' as const };
		second.answer({ ...refused(1_000), quota: spent });
		await second.done;
		const log: string[] = [];
		request(lane, log, 'after');
		await vi.advanceTimersByTimeAsync(1_000);
		expect(log).toEqual(['after']);
		// A pause would have taught the rate the quota's window: one request a second.
		expect(gateFor(service).rate.perSecond).toBe(Number.POSITIVE_INFINITY);
		lane.close();
	});

	it('a quota spent until a reset longer than the node waits lets every waiting item go unsent, told when it resets, once no answer is awaited', async () => {
		const service = newService();
		const lane = new ExecutionLane(service, undefined);
		const first = request(lane, [], 'first');
		await microtasks();
		// Its reset later than the last's: the earliest told is the one the window ends by.
		first.answer(acceptedTelling(1, MAX_WAIT_MS + 2000));
		await first.done;
		const log: string[] = [];
		const [last, ...waiting] = ['last', 'b', 'c'].map((label) => request(lane, log, label));
		await microtasks();
		expect(log).toEqual(['last']);
		// Its answer could still tell of more room: the others wait for it.
		await vi.advanceTimersByTimeAsync(1_000);
		last.answer(acceptedTelling(0, MAX_WAIT_MS + 1));
		const resetAt = Date.now() + MAX_WAIT_MS + 1;
		const unsent = { failure: quotaSpent(resetAt, 'X-RateLimit-Remaining', Date.now()) };
		expect(await Promise.all(waiting.map(async ({ done }) => await done))).toEqual([
			unsent,
			unsent,
		]);
		expect(log).toEqual(['last']);
		expect(vi.getTimerCount()).toBe(0);
		lane.close();
	});

	it('a quota spent until a reset of exactly the longest the node waits holds the items until then, refusing none', async () => {
		const lane = new ExecutionLane(newService(), undefined);
		const first = request(lane, [], 'first');
		await microtasks();
		first.answer(acceptedTelling(0, MAX_WAIT_MS));
		await first.done;
		const log: string[] = [];
		request(lane, log, 'next');
		await vi.advanceTimersByTimeAsync(MAX_WAIT_MS - 1);
		expect(log).toEqual([]);
		await vi.advanceTimersByTimeAsync(1);
		expect(log).toEqual(['next']);
		lane.close();
	});
});
