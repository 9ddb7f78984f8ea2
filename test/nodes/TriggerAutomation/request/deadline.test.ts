import { getEventListeners } from 'node:events';
import type { IExecuteFunctions } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { deadline } from '../../../../nodes/TriggerAutomation/request/deadline';

// A deadline reads only the execution's cancel signal from the node's context.
const nodeContext = (cancel?: AbortSignal) =>
	({ getExecutionCancelSignal: () => cancel }) as unknown as IExecuteFunctions;

describe('Options → Timeout: the deadline a request gets', () => {
	it('fires once the Timeout has passed, and says it was the timer', async () => {
		const started = Date.now();
		const { ctx, timer } = deadline(nodeContext(new AbortController().signal), 50);
		const requestSignal = ctx.getExecutionCancelSignal()!;
		expect(requestSignal.aborted).toBe(false);
		await new Promise((settle) => requestSignal.addEventListener('abort', settle));
		expect(Date.now() - started).toBeGreaterThanOrEqual(45);
		expect(timer.aborted).toBe(true);
	});

	it("Stop aborts the request's signal, not the timer", () => {
		const stop = new AbortController();
		const requests = Array.from({ length: 40 }, () => deadline(nodeContext(stop.signal), 30_000));
		stop.abort();
		expect(requests.every(({ ctx }) => ctx.getExecutionCancelSignal()!.aborted)).toBe(true);
		expect(requests.some(({ timer }) => timer.aborted)).toBe(false);
	});

	it("leaves no listener on the execution's signal, however many requests it had", () => {
		const stop = new AbortController();
		for (let n = 0; n < 40; n++) deadline(nodeContext(stop.signal), 30_000);
		expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
	});

	it('a request that starts after Stop gets a signal already aborted', () => {
		const stop = new AbortController();
		stop.abort();
		const { ctx } = deadline(nodeContext(stop.signal), 30_000);
		expect(ctx.getExecutionCancelSignal()!.aborted).toBe(true);
	});

	it("the rest of the context is n8n's own", () => {
		const context = { ...nodeContext(), getNode: () => ({ name: 'Trigger Automation' }) };
		const { ctx } = deadline(context as unknown as IExecuteFunctions, 1_000);
		expect(ctx.getNode().name).toBe('Trigger Automation');
	});
});
