import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { outputOf, startWorkflow } from '../../../../dev/engine';
import { MAY_HAVE_RUN } from '../../../../nodes/TriggerAutomation/answer/failure';
import { MAX_IN_FLIGHT } from '../../../../nodes/TriggerAutomation/limits';
import { SECRET, engineReceiver, timestampOf } from '../../../support/engineReceiver';
import type { ServiceSpec } from '../../../support/limitedService';
import { count, limitedService, messageOf, wait } from '../../../support/limitedService';
import { NODE_NAME, triggerWorkflow } from '../../../support/workflows';

const { receiver, run, webhookUrl } = engineReceiver();

const items = (count: number) => Array.from({ length: count }, (_, n) => ({ n }));
/** Sending at its default (Adaptive), one message per item: its index. */
const DEFAULTS = { message: '={{ $json.n }}' };

/** A service on this file's receiver. */
const service = (spec: ServiceSpec) => limitedService(receiver, spec);

/** Every request answered after 50 ms: 429 with Retry-After: 3600, longer than the node waits. */
const askToWaitAnHour = () =>
	receiver.respondWith(async (_request, res) => {
		await wait(50);
		res.writeHead(429, { 'Retry-After': '3600' }).end();
	});

describe('Sending → Adaptive (the default): as fast as the service accepts, never flooding it', () => {
	it('a prompt service gets many requests at once (more than a few, never more than the cap), and every output is its own item, in item order', async () => {
		const seen = service({ latencyMs: (k) => 5 + ((k * 7) % 30) });
		const result = await run(DEFAULTS, items(200));
		const peak = Math.max(...seen.inFlightAtArrival);
		expect(peak).toBeGreaterThan(8);
		expect(peak).toBeLessThanOrEqual(MAX_IN_FLIGHT);
		const output = outputOf(result, NODE_NAME);
		expect(output.map((item) => item.pairedItem)).toEqual(items(200).map((_, item) => ({ item })));
		expect(output.map((item) => (item.json.response as IDataObject).runId)).toEqual(
			items(200).map((_, n) => `run-${n}`),
		);
		expect(Object.values(count(seen.runs)).every((runs) => runs === 1)).toBe(true);
	});

	it('a rate-limited service (10 requests/s, then 429 with Retry-After: 1): every item gets exactly one run, and none fails', async () => {
		const seen = service({ latencyMs: () => 20, perSecond: 10 });
		const result = await run(DEFAULTS, items(30));
		expect(result.status).toBe('success');
		expect(seen.tooMany).toBeGreaterThan(0);
		expect(count(seen.runs)).toEqual(Object.fromEntries(items(30).map((_, n) => [n, 1])));
		expect(outputOf(result, NODE_NAME).map((item) => item.json.statusCode)).toEqual(
			Array(30).fill(202),
		);
	});

	it('a service that answers 429 for ever: each item ends after Retries When Not Accepted re-sends, with the 429', async () => {
		receiver.respondWith((_request, res) => {
			res.writeHead(429, { 'Retry-After': '0' }).end();
		});
		const result = await run({ ...DEFAULTS, options: { retries: 2 } }, items(3), {
			onError: 'continueRegularOutput',
		});
		for (const item of outputOf(result, NODE_NAME)) {
			expect(item.json.error).toMatch(
				/^Rate limited by the service \(429\): turned away 3 times in (under 1|\d+) s, retries spent$/,
			);
		}
		expect(count(receiver.requests.map(messageOf))).toEqual({ 0: 3, 1: 3, 2: 3 });
	});

	it('a 503 in the middle fails only its item as "may have run", which is never re-sent; the others get their runs', async () => {
		const seen = service({ latencyMs: () => 10, statusFor: (m) => (m === '5' ? 503 : 202) });
		const result = await run({ ...DEFAULTS, options: { retries: 5 } }, items(20), {
			onError: 'continueRegularOutput',
		});
		const output = outputOf(result, NODE_NAME);
		expect(output[5].json).toMatchObject({
			error: 'The service failed to handle the request (503)',
			details: { httpCode: '503' },
		});
		expect((output[5].json.details as IDataObject).description).toContain(MAY_HAVE_RUN);
		expect(count(receiver.requests.map(messageOf))['5']).toBe(1);
		expect(seen.runs).toHaveLength(19);
		expect(output.filter((item) => item.json.statusCode === 202)).toHaveLength(19);
	});

	it('Stop while adapting ends the run at once, reported as stopped, and sends nothing more', async () => {
		service({ latencyMs: () => 50 });
		const started = await startWorkflow(
			triggerWorkflow({
				parameters: DEFAULTS,
				items: items(500),
				settings: {},
				webhookUrl: webhookUrl(),
				secret: SECRET,
			}),
		);
		while (receiver.requests.length < 20) await wait(5);
		const stoppedAt = Date.now();
		started.promise.cancel();
		const result = await started.promise;
		expect(Date.now() - stoppedAt).toBeLessThan(1_000);
		expect(result.status).toBe('canceled');
		// Requests started before Stop may still reach this receiver (it shares the event loop, and
		// a busy one sends late); none was signed after it.
		await wait(400);
		expect(receiver.requests.length).toBeLessThan(500);
		expect(Math.max(...receiver.requests.map(timestampOf))).toBeLessThanOrEqual(stoppedAt);
		expect(Object.values(count(receiver.requests.map(messageOf))).every((n) => n === 1)).toBe(true);
	});

	it('a 429 asking to wait an hour ends the execution at once: what was not yet sent fails unsent, with the same code; nothing is sent twice', async () => {
		askToWaitAnHour();
		const result = await run(DEFAULTS, items(300), { onError: 'continueRegularOutput' });
		const sent = count(receiver.requests.map(messageOf));
		expect(Object.values(sent).every((n) => n === 1)).toBe(true);
		expect(receiver.requests.length).toBeLessThan(300);
		const output = outputOf(result, NODE_NAME);
		expect(output.map((item) => (item.json.details as IDataObject).code)).toEqual(
			Array(300).fill('rate_limited'),
		);
		output.forEach((item, n) =>
			expect(item.json.error).toMatch(
				n in sent
					? /^Rate limited by the service \(429\): asked to wait 3600 s \(Retry-After\), longer than this node waits$/
					: /^Not sent: the service asked to wait 3\d{3} s more \(Retry-After\)/,
			),
		);
	});

	it('a 429 asking to wait an hour, without Continue On Fail: the node stops with it, not after the hour', async () => {
		askToWaitAnHour();
		const result = await run(DEFAULTS, items(300));
		expect(result.status).toBe('error');
		expect(result.data.resultData.error?.message).toMatch(/\(429\)|Not sent/);
		expect(receiver.requests.length).toBeLessThan(300);
	});

	it("Retry On Fail after a partial run sends again only the items that were not accepted, and without Continue On Fail the first try's failure waits for the items in flight", async () => {
		let failed = false;
		service({
			latencyMs: () => 10,
			statusFor: (m) => (m === '3' && !failed ? ((failed = true), 500) : 202),
		});
		const result = await run(DEFAULTS, items(10), {
			retryOnFail: true,
			maxTries: 2,
			waitBetweenTries: 10,
		});
		expect(result.status).toBe('success');
		expect(count(receiver.requests.map(messageOf))).toEqual({
			...Object.fromEntries(items(10).map((_, n) => [n, 1])),
			3: 2,
		});
		expect(outputOf(result, NODE_NAME).map((item) => item.pairedItem)).toEqual(
			items(10).map((_, item) => ({ item })),
		);
	});
});
