/**
 * Sending → Adaptive across executions, in n8n-core's engine: executions started together in one
 * process (as n8n runs one per event), each Start → Trigger Automation at its defaults, share one
 * rate limiter per service: a burst loses nothing and sends nothing twice, a small execution is not
 * stuck behind a big one, Stop ends one execution only. The limiter's rules are proven with a
 * controlled clock in limiter.test.ts.
 */
import type { IDataObject, INodeParameters, IRun } from 'n8n-workflow';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { outputOf, startWorkflow } from '../../../../dev/engine';
import { MAX_IN_FLIGHT } from '../../../../nodes/TriggerAutomation/limits';
import { SECRET, engineReceiver, timestampOf } from '../../../support/engineReceiver';
import { expectNoLeak } from '../../../support/leaks';
import type { ServiceSpec } from '../../../support/limitedService';
import { count, limitedService, messageOf, wait } from '../../../support/limitedService';
import { specViolations } from '../../../support/receiver';
import { NODE_NAME, triggerWorkflow } from '../../../support/workflows';

const { receiver, webhookUrl, webhookPath } = engineReceiver();
const service = (spec: ServiceSpec) => limitedService(receiver, spec);

afterEach(() => vi.restoreAllMocks());

/** Item `n` of execution `e` sends the message "e-n". */
const messages = (e: number, size: number) => Array.from({ length: size }, (_, n) => `${e}-${n}`);

/** Starts one execution of Start → Trigger Automation (defaults, On Error → Continue). */
async function execution(e: number, size: number, options: INodeParameters = {}) {
	const started = await startWorkflow(
		triggerWorkflow({
			parameters: { message: '={{ $json.m }}', options },
			items: messages(e, size).map((m) => ({ m })),
			settings: { onError: 'continueRegularOutput' },
			webhookUrl: webhookUrl(),
			secret: SECRET,
		}),
	);
	return started.promise;
}

/** `executions` executions of `size` items each, started together. */
async function burst(executions: number, size: number, options: INodeParameters = {}) {
	const runs = await Promise.all(
		Array.from({ length: executions }, async (_, e) => await execution(e, size, options)),
	);
	for (const request of receiver.requests)
		expect(specViolations(request, SECRET, webhookPath())).toEqual([]);
	expectNoLeak(SECRET, { extra: runs }, receiver.requests);
	return runs;
}

const statuses = (run: IRun) => outputOf(run, NODE_NAME).map((item) => item.json.statusCode);
const runIds = (run: IRun) =>
	outputOf(run, NODE_NAME).map((item) => (item.json.response as IDataObject | undefined)?.runId);

describe('executions sending to one service share its rate limiter', () => {
	it('25 executions × 2 items at once, the service allows 5 requests/s: every item accepted once, none fails', async () => {
		const seen = service({ latencyMs: () => 50, perSecond: 5 });
		const runs = await burst(25, 2);
		runs.forEach((run, e) => {
			expect(run.status).toBe('success');
			expect(statuses(run)).toEqual([202, 202]);
			// Each output is its own item's answer, in item order.
			expect(runIds(run)).toEqual(messages(e, 2).map((m) => `run-${m}`));
		});
		const all = runs.flatMap((_, e) => messages(e, 2));
		expect(count(seen.runs)).toEqual(Object.fromEntries(all.map((m) => [m, 1])));
		expect(Math.max(...seen.inFlightAtArrival)).toBeLessThanOrEqual(MAX_IN_FLIGHT);
	});

	it('an execution of 1 item that starts while a big one waits on a rate limit runs before most of the big one', async () => {
		// Five seconds' worth of the limit: when the big execution has had its first runs, most of it
		// still waits, and the small one starts then. On a loaded machine starting it takes a while,
		// and the big one's first burst finds more room: 21-26 of its items ran first here.
		const size = 100;
		const seen = service({ latencyMs: () => 20, perSecond: 20 });
		const big = execution(0, size);
		while (seen.runs.length < 5) await wait(5);
		const small = await execution(1, 1);
		const bigRun = await big;
		expect(small.status).toBe('success');
		expect(statuses(small)).toEqual([202]);
		// The big execution's re-sends waiting when it started go first, then the two take turns.
		const smallRanAt = seen.ranAt.get('1-0')!;
		const bigBefore = messages(0, size).filter((m) => seen.ranAt.get(m)! < smallRanAt).length;
		expect(bigBefore).toBeLessThan(size / 2);
		expect(statuses(bigRun)).toEqual(Array(size).fill(202));
	});

	it('a service busy for several Retry-After pauses: the items take turns meeting it, so none runs out of its retries', async () => {
		// Five pauses of 1 s: the same item sent first after each would meet six 429s, one more than
		// its Retries When Not Accepted (5) allow; re-sends go in the order they were turned away.
		const seen = service({ latencyMs: () => 20, busyMs: 5_500 });
		const runs = await burst(2, 2);
		runs.forEach((run, e) => {
			expect(statuses(run)).toEqual([202, 202]);
			expect(runIds(run)).toEqual(messages(e, 2).map((m) => `run-${m}`));
		});
		// More turn-aways than one item's retries allow, whatever the machine's speed: the first
		// requests, then one after each of the five pauses.
		expect(seen.tooMany).toBeGreaterThan(5);
		expect(Math.max(...seen.turnedAway.values())).toBeLessThanOrEqual(3);
	});

	it('Stop ends one execution at once and leaves the other sending all its items', async () => {
		const seen = service({ latencyMs: () => 50 });
		const stopped = await startWorkflow(
			triggerWorkflow({
				parameters: { message: '={{ $json.m }}' },
				items: messages(0, 400).map((m) => ({ m })),
				webhookUrl: webhookUrl(),
				secret: SECRET,
			}),
		);
		const other = execution(1, 400);
		while (receiver.requests.length < 40) await wait(5);
		const stoppedAt = Date.now();
		stopped.promise.cancel();
		expect((await stopped.promise).status).toBe('canceled');
		expect(Date.now() - stoppedAt).toBeLessThan(1_000);
		const otherRun = await other;
		// Requests signed before Stop may still arrive (the receiver shares the event loop); none after.
		const fromStopped = receiver.requests.filter((r) => messageOf(r).startsWith('0-'));
		expect(fromStopped.length).toBeLessThan(400);
		expect(Math.max(...fromStopped.map(timestampOf))).toBeLessThanOrEqual(stoppedAt);
		expect(statuses(otherRun)).toEqual(Array(400).fill(202));
		expect(seen.runs.filter((m) => m.startsWith('1-'))).toHaveLength(400);
	});

	it('One at a Time keeps its meaning per execution: two executions, one request each at a time', async () => {
		const seen = service({ latencyMs: () => 30 });
		const runs = await burst(2, 6, { sending: 'oneAtATime' });
		expect(Math.max(...seen.inFlightAtArrival)).toBe(2);
		for (const e of [0, 1]) {
			expect(seen.runs.filter((m) => m.startsWith(`${e}-`))).toEqual(messages(e, 6));
			expect(statuses(runs[e])).toEqual(Array(6).fill(202));
		}
	});

	it('no timer of the limiter outlives the executions, even after a Retry-After pause', async () => {
		const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
		const before = timers();
		service({ latencyMs: () => 10, perSecond: 5 });
		await burst(4, 3);
		await wait(50);
		expect(timers()).toBeLessThanOrEqual(before);
	});
});
