import type { IExecuteFunctions } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { REQUESTS_PER_DEADLINE, deadlineFor } from '../nodes/TriggerAutomation/deadline';

// deadlineFor reads only the execution's cancel signal from the node's context.
const nodeContext = () =>
	({ getExecutionCancelSignal: () => undefined }) as unknown as IExecuteFunctions;

describe('Options → Timeout: the deadline a request gets', () => {
	it('is never shorter than the Timeout and at most 1% longer, shared or not', () => {
		const ctx = nodeContext();
		const start = 1_000_000;
		const seen = new Set<object>();
		// One request per ms for 40 ms, as items sent one at a time.
		for (let now = start; now < start + 40; now++) {
			const deadline = deadlineFor(ctx, 1000, now);
			seen.add(deadline);
			expect(deadline.endsAt - now).toBeGreaterThanOrEqual(1000);
			expect(deadline.endsAt - now).toBeLessThanOrEqual(1010);
		}
		// Shared: 40 requests needed 5 timer signals, not 40.
		expect(seen.size).toBe(40 / REQUESTS_PER_DEADLINE);
	});

	it('is shared by at most 8 requests (each adds an abort listener; Node warns above 10)', () => {
		const ctx = nodeContext();
		const deadlines = Array.from({ length: 64 }, () => deadlineFor(ctx, 30_000, 5_000));
		const counts = new Map<object, number>();
		for (const deadline of deadlines) counts.set(deadline, (counts.get(deadline) ?? 0) + 1);
		expect([...counts.values()]).toEqual(Array(8).fill(REQUESTS_PER_DEADLINE));
	});

	it('counts only requests in flight: one after another, requests share one signal while it leaves them their whole Timeout', () => {
		const ctx = nodeContext();
		const seen = new Set<object>();
		// Timeout 10 s: a signal lives 10.1 s, so requests in its first 100 ms share it.
		for (let now = 0; now < 200; now += 2) {
			const deadline = deadlineFor(ctx, 10_000, now);
			seen.add(deadline);
			expect(deadline.endsAt - now).toBeGreaterThanOrEqual(10_000);
			deadline.release();
		}
		expect(seen.size).toBe(2);
	});

	it('is not shared between different Timeouts or different runs of the node', () => {
		const [a, b] = [nodeContext(), nodeContext()];
		const first = deadlineFor(a, 1000, 0);
		expect(deadlineFor(a, 2000, 0)).not.toBe(first);
		expect(deadlineFor(b, 1000, 0)).not.toBe(first);
	});

	it('fires: its signal aborts once the Timeout has passed', async () => {
		const deadline = deadlineFor(nodeContext(), 50);
		expect(deadline.signal.aborted).toBe(false);
		await new Promise((settle) => deadline.signal.addEventListener('abort', settle));
		expect(Date.now()).toBeGreaterThanOrEqual(deadline.endsAt - 5);
	});
});
