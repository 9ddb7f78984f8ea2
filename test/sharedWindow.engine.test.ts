/**
 * Sending → Adaptive across executions, in n8n-core's engine: executions started together in one
 * process (as n8n runs one per event), each Start → Trigger Automation at its defaults, share one
 * window per service: a burst loses nothing, a small execution is not stuck behind a big one, Stop
 * ends one execution only, and what the window learned outlives an execution for a while.
 */
import type { IDataObject, INodeParameters, IRun } from 'n8n-workflow';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { outputOf, startWorkflow } from '../dev/engine';
import { INITIAL_WINDOW, MAX_IN_FLIGHT } from '../nodes/TriggerAutomation/sending/congestionWindow';
import { IDLE_MS } from '../nodes/TriggerAutomation/sending/sharedWindow';
import { SECRET, engineReceiver, timestampOf } from './support/engineReceiver';
import { expectNoLeak } from './support/leaks';
import type { ServiceSpec } from './support/limitedService';
import { count, limitedService, messageOf, wait } from './support/limitedService';
import { specViolations } from './support/receiver';
import { NODE_NAME, triggerWorkflow } from './support/workflows';

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

/** Requests that arrived within `ms` of the first one at or after `since`. */
function firstRound(since: number, ms: number): number {
	const arrivals = receiver.requests.map((r) => r.receivedAt).filter((at) => at >= since);
	return arrivals.filter((at) => at - arrivals[0] < ms).length;
}

describe('executions sending to one service share its window', () => {
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

	it('once the service has asked to wait, requests start no faster than it accepts them: after the first pause, few more 429s', async () => {
		const seen = service({ latencyMs: () => 20, perSecond: 5 });
		const runs = await burst(25, 2);
		for (const run of runs) expect(statuses(run)).toEqual([202, 202]);
		// The first burst meets the limit once (the window starts above it); paced after that,
		// the service turns a request away only when the pace has quickened past its limit.
		const firstPauseEnds = seen.tooManyAt[0] + 1000;
		const later = seen.tooManyAt.filter((at) => at >= firstPauseEnds);
		// Held to a window of requests in flight alone, the rest of the burst meets the limit after
		// every pause: three times this bound.
		expect(later.length).toBeLessThanOrEqual(6);
	});

	it('an execution of 1 item that starts while a big one waits on a rate limit runs before most of the big one', async () => {
		// Twice the first window: the big execution's first requests are turned away, the rest wait.
		const size = 2 * INITIAL_WINDOW;
		const seen = service({ latencyMs: () => 20, perSecond: 20 });
		const big = execution(0, size);
		await wait(500);
		const small = await execution(1, 1);
		const bigRun = await big;
		expect(small.status).toBe('success');
		expect(statuses(small)).toEqual([202]);
		// Only the re-sends the window already holds (bounded by it) may go first, not all of them.
		const smallRanAt = seen.ranAt.get('1-0')!;
		const bigBefore = messages(0, size).filter((m) => seen.ranAt.get(m)! < smallRanAt).length;
		expect(bigBefore).toBeLessThan(INITIAL_WINDOW + 13);
		expect(statuses(bigRun)).toEqual(Array(size).fill(202));
	});

	it('a service busy for several Retry-After pauses: the first request after each pause is a different item, so none runs out of its retries', async () => {
		// Five pauses of 1 s: the same item sent first after each would meet six 429s, one more than
		// its Retries When Not Accepted (5) allow.
		const seen = service({ latencyMs: () => 20, busyMs: 5_500 });
		const runs = await burst(2, 2);
		runs.forEach((run, e) => {
			expect(statuses(run)).toEqual([202, 202]);
			expect(runIds(run)).toEqual(messages(e, 2).map((m) => `run-${m}`));
		});
		expect(seen.tooMany).toBeGreaterThanOrEqual(8);
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

	it('a later execution starts from the window the last one learned; after a minute idle, afresh', async () => {
		// Every request of the first execution is turned away: the window halves.
		receiver.respondWith((_request, res) => {
			res.writeHead(429, { 'Retry-After': '0' }).end();
		});
		const pushedBack = await execution(0, 2 * INITIAL_WINDOW, { retries: 0 });
		expect(statuses(pushedBack).every((status) => status === undefined)).toBe(true);
		service({ latencyMs: () => 150 });
		const learned = Date.now();
		await execution(1, 2 * INITIAL_WINDOW);
		expect(firstRound(learned, 100)).toBeLessThan(INITIAL_WINDOW);

		const now = Date.now.bind(Date);
		vi.spyOn(Date, 'now').mockImplementation(() => now() + IDLE_MS + 1_000);
		const afresh = Date.now();
		await execution(2, 2 * INITIAL_WINDOW);
		expect(firstRound(afresh, 100)).toBe(INITIAL_WINDOW);
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

	it('no timer of the window outlives the executions, even after a Retry-After pause', async () => {
		const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
		const before = timers();
		service({ latencyMs: () => 10, perSecond: 5 });
		await burst(4, 3);
		await wait(50);
		expect(timers()).toBeLessThanOrEqual(before);
	});
});
