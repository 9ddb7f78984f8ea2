import { getEventListeners, setMaxListeners } from 'node:events';
import type { IExecuteFunctions } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { Deadlines, REQUESTS_PER_DEADLINE } from '../nodes/TriggerAutomation/request/deadline';

// Deadlines read only the execution's cancel signal from the node's context.
const nodeContext = (cancel?: AbortSignal) =>
	({ getExecutionCancelSignal: () => cancel }) as unknown as IExecuteFunctions;

describe('Options → Timeout: the deadline a request gets', () => {
	it('is never shorter than the Timeout and at most 1% longer, shared or not', () => {
		const deadlines = new Deadlines(nodeContext());
		const start = 1_000_000;
		const seen = new Set<object>();
		// One request per ms for 40 ms, none ending: as a batch of 40 sent over 40 ms.
		for (let now = start; now < start + 40; now++) {
			const deadline = deadlines.forRequest(1000, now);
			seen.add(deadline);
			expect(deadline.endsAt - now).toBeGreaterThanOrEqual(1000);
			expect(deadline.endsAt - now).toBeLessThanOrEqual(1010);
		}
		// Shared: 40 requests needed 5 timer signals, not 40.
		expect(seen.size).toBe(40 / REQUESTS_PER_DEADLINE);
	});

	it('is shared by at most 8 requests in flight (each adds an abort listener; Node warns above 10)', () => {
		const deadlines = new Deadlines(nodeContext());
		const list = Array.from({ length: 64 }, () => deadlines.forRequest(30_000, 5_000));
		const counts = new Map<object, number>();
		for (const deadline of list) counts.set(deadline, (counts.get(deadline) ?? 0) + 1);
		expect([...counts.values()]).toEqual(Array(8).fill(REQUESTS_PER_DEADLINE));
	});

	it('counts only requests in flight: one after another, requests share one signal while it leaves them their whole Timeout', () => {
		const deadlines = new Deadlines(nodeContext());
		const seen = new Set<object>();
		// Timeout 10 s: a signal lives 10.1 s, so requests in its first 100 ms share it.
		for (let now = 0; now < 200; now += 2) {
			const deadline = deadlines.forRequest(10_000, now);
			seen.add(deadline);
			expect(deadline.endsAt - now).toBeGreaterThanOrEqual(10_000);
			deadline.release();
		}
		expect(seen.size).toBe(2);
	});

	it('is not shared between different Timeouts or different runs of the node', () => {
		const [a, b] = [new Deadlines(nodeContext()), new Deadlines(nodeContext())];
		const first = a.forRequest(1000, 0);
		expect(a.forRequest(2000, 0)).not.toBe(first);
		expect(b.forRequest(1000, 0)).not.toBe(first);
	});

	it('fires: the request signal aborts once the Timeout has passed, and says it was the timer', async () => {
		const deadline = new Deadlines(nodeContext()).forRequest(50);
		const requestSignal = deadline.ctx.getExecutionCancelSignal()!;
		expect(requestSignal.aborted).toBe(false);
		await new Promise((settle) => requestSignal.addEventListener('abort', settle));
		expect(Date.now()).toBeGreaterThanOrEqual(deadline.endsAt - 5);
		expect(deadline.signal.aborted).toBe(true);
	});

	it("Stop aborts every request's signal, not the timer, through one listener for the run, gone after dispose", () => {
		const stop = new AbortController();
		const deadlines = new Deadlines(nodeContext(stop.signal));
		const list = Array.from({ length: 40 }, () => deadlines.forRequest(30_000, 0));
		const signals = new Set(list.map((d) => d.ctx.getExecutionCancelSignal()!));
		expect(signals.size).toBe(5);
		stop.abort();
		expect([...signals].every((signal) => signal.aborted)).toBe(true);
		expect(list.some((d) => d.signal.aborted)).toBe(false);

		// A run that ends removes its listener: the execution's signal keeps none per run.
		const later = new AbortController();
		// 20 runs of the node at once on one execution's signal, one listener each until they end:
		// more than Node's default of 10, which it would report as a possible leak. No leak: the
		// runs are disposed below and leave none behind.
		setMaxListeners(20, later.signal);
		const runs = Array.from({ length: 20 }, () => new Deadlines(nodeContext(later.signal)));
		const kept = runs.map((run) => run.forRequest(30_000).ctx.getExecutionCancelSignal()!);
		expect(getEventListeners(later.signal, 'abort')).toHaveLength(20);
		runs.forEach((run) => run.dispose());
		expect(getEventListeners(later.signal, 'abort')).toHaveLength(0);
		later.abort();
		expect(kept.some((signal) => signal.aborted)).toBe(false);
	});

	it("after the run no timer holds on to it: dispose unhooks every deadline's timer", () => {
		const deadlines = new Deadlines(nodeContext(new AbortController().signal));
		const timers = [deadlines.forRequest(3_600_000, 0), deadlines.forRequest(60_000, 0)].map(
			(d) => d.signal,
		);
		expect(timers.map((timer) => getEventListeners(timer, 'abort').length)).toEqual([1, 1]);
		deadlines.dispose();
		expect(timers.map((timer) => getEventListeners(timer, 'abort').length)).toEqual([0, 0]);
	});

	it('a request that starts after Stop gets a signal already aborted', () => {
		const stop = new AbortController();
		stop.abort();
		const deadline = new Deadlines(nodeContext(stop.signal)).forRequest(30_000);
		expect(deadline.ctx.getExecutionCancelSignal()!.aborted).toBe(true);
	});
});
