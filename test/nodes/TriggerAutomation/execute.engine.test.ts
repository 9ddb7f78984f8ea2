import { describe, expect, it } from 'vitest';

import { errorOf, outputOf } from '../../../dev/engine';
import { engineReceiver, timestampOf } from '../../support/engineReceiver';
import type { Responder } from '../../support/receiver';
import { acceptWithJson, bodyJson } from '../../support/receiver';
import { NODE_NAME } from '../../support/workflows';

const { receiver, run } = engineReceiver();

describe('a trigger is a signed POST of {"data":{"message","context"}} (spec §4, §5)', () => {
	it('Context None: the body carries the message only, and the response is passed on', async () => {
		const result = await run({ message: 'Summarise today', contextMode: 'none' });
		expect(result.status).toBe('success');
		expect(receiver.requests).toHaveLength(1);
		const [request] = receiver.requests;
		expect(request.body.toString('utf8')).toBe('{"data":{"message":"Summarise today"}}');
		const [item] = outputOf(result, NODE_NAME);
		expect(item.pairedItem).toEqual({ item: 0 });
		expect(item.json).toEqual({
			automationId: 'auto-42',
			signedAt: new Date(timestampOf(request)).toISOString(),
			statusCode: 202,
			response: { runId: `run-${request.receivedAt}` },
		});
	});

	it('Context All Input Fields: the input item is the context', async () => {
		const input = { orderId: 7, customer: { name: 'Ada', tags: ['vip'] }, paid: true, note: null };
		await run({ message: 'Handle order', contextMode: 'allFields' }, [input]);
		expect(bodyJson(receiver.requests[0])).toEqual({
			data: { message: 'Handle order', context: input },
		});
	});

	it('Context Selected Fields: typed name/value pairs as in Edit Fields, with expressions', async () => {
		await run(
			{
				message: 'Go',
				contextMode: 'selectedFields',
				contextFields: {
					assignments: [
						{ id: '1', name: 'orderId', value: '={{ $json.id }}', type: 'number' },
						{ id: '2', name: 'customer', value: '={{ $json.name.toUpperCase() }}', type: 'string' },
						{ id: '3', name: 'urgent', value: 'true', type: 'boolean' },
						{ id: '4', name: 'lines', value: '[1,2]', type: 'array' },
						{ id: '5', name: 'meta', value: '{"source":"n8n"}', type: 'object' },
						{ id: '6', name: 'a.b', value: 'dot stays in the name', type: 'string' },
					],
				},
			},
			[{ id: '42', name: 'ada' }],
		);
		expect(bodyJson(receiver.requests[0]).data.context).toEqual({
			orderId: 42,
			customer: 'ADA',
			urgent: true,
			lines: [1, 2],
			meta: { source: 'n8n' },
			'a.b': 'dot stays in the name',
		});
	});

	it('a parameter with an expression only deep inside (a Selected Field) is still resolved per item', async () => {
		await run(
			{
				message: 'Same for all',
				contextMode: 'selectedFields',
				contextFields: {
					assignments: [
						{ id: '1', name: 'fixed', value: 'x', type: 'string' },
						{ id: '2', name: 'orderId', value: '={{ $json.id }}', type: 'number' },
					],
				},
			},
			[{ id: 1 }, { id: 2 }, { id: 3 }],
		);
		expect(receiver.requests.map((r) => bodyJson(r).data)).toEqual(
			[1, 2, 3].map((orderId) => ({ message: 'Same for all', context: { fixed: 'x', orderId } })),
		);
	});

	it('Context JSON: an object, with expressions resolved per item', async () => {
		await run(
			{
				message: '=Order {{ $json.id }} from {{ $json.city }}',
				contextMode: 'json',
				contextJson: '={\n  "orderId": {{ $json.id }},\n  "city": "{{ $json.city }}"\n}',
			},
			[
				{ id: 1, city: 'Oslo' },
				{ id: 2, city: 'Lima' },
			],
		);
		expect(receiver.requests.map((r) => bodyJson(r).data)).toEqual([
			{ message: 'Order 1 from Oslo', context: { orderId: 1, city: 'Oslo' } },
			{ message: 'Order 2 from Lima', context: { orderId: 2, city: 'Lima' } },
		]);
	});

	it('a number or boolean from the Message expression is sent as text', async () => {
		await run({ message: '={{ $json.n }}' }, [{ n: 12.5 }]);
		await run({ message: '={{ $json.flag }}' }, [{ flag: false }]);
		expect(receiver.requests.map((r) => bodyJson(r).data.message)).toEqual(['12.5', 'false']);
	});

	it('unicode (é, emoji, U+2028, U+2029) is sent byte-exact and signed over those bytes', async () => {
		const message = 'Café ☕ 🚀 line\u2028sep\u2029end';
		const context = { name: 'Zoë', emoji: '👩‍💻', sep: '\u2028' };
		await run({ message, contextMode: 'allFields' }, [context]);
		const expected = Buffer.from(JSON.stringify({ data: { message, context } }), 'utf8');
		expect(receiver.requests[0].body.equals(expected)).toBe(true);
	});
});

describe('one output item per input item, paired', () => {
	it('five items → five runs, five paired items in input order', async () => {
		const items = [1, 2, 3, 4, 5].map((n) => ({ n }));
		const result = await run({ message: '=item {{ $json.n }}' }, items);
		const output = outputOf(result, NODE_NAME);
		expect(output.map((item) => item.pairedItem)).toEqual(items.map((_, i) => ({ item: i })));
		expect(receiver.requests.map((r) => bodyJson(r).data.message)).toEqual(
			items.map(({ n }) => `item ${n}`),
		);
		expect(new Set(receiver.requests.map((r) => r.headers['x-service-signature'])).size).toBe(5);
	});

	it('Include Response Headers and Status adds headers and status message', async () => {
		const result = await run({ message: 'x', options: { fullResponse: true } });
		const json = outputOf(result, NODE_NAME)[0].json;
		expect(json.statusMessage).toBe('Accepted');
		expect((json.headers as Record<string, string>)['content-type']).toBe('application/json');
	});

	it('a non-JSON answer is passed on as text', async () => {
		receiver.respondWith((_r, res) => {
			res.writeHead(200, { 'Content-Type': 'text/plain' });
			res.end('queued');
		});
		const result = await run({ message: 'x' });
		expect(outputOf(result, NODE_NAME)[0].json.response).toBe('queued');
	});
});

describe('batching (Options → Batching: items per batch = requests in flight together)', () => {
	it.each([
		['a batch of 64', { batching: { batch: { batchSize: 64, batchInterval: 0 } } }],
		['64 items one at a time', {}],
	])("%s raises no listener-leak warning on the execution's Stop signal", async (_, options) => {
		const warnings: string[] = [];
		const onWarning = (warning: Error) => warnings.push(warning.name);
		process.on('warning', onWarning);
		try {
			// A fixed message: the requests of a batch start within the same millisecond.
			const result = await run(
				{ message: 'Go', options },
				Array.from({ length: 64 }, (_, n) => ({ n })),
			);
			expect(outputOf(result, NODE_NAME).map((i) => i.json.statusCode)).toEqual(
				Array(64).fill(202),
			);
		} finally {
			process.off('warning', onWarning);
		}
		expect(warnings).not.toContain('MaxListenersExceededWarning');
	});

	it('every request of a batch that gets no answer fails after Options → Timeout', async () => {
		receiver.respondWith(() => undefined);
		const started = Date.now();
		const result = await run(
			{
				message: '={{ $json.n }}',
				options: { timeout: 300, batching: { batch: { batchSize: 20, batchInterval: 0 } } },
			},
			Array.from({ length: 20 }, (_, n) => ({ n })),
			{ onError: 'continueRegularOutput' },
		);
		const output = outputOf(result, NODE_NAME);
		expect(output.map((i) => i.json.error)).toEqual(
			Array(20).fill('The service did not answer within 300 ms'),
		);
		expect(Date.now() - started).toBeLessThan(3000);
	});

	it('the batch interval separates batches', async () => {
		await run(
			{
				message: '={{ $json.n }}',
				options: { batching: { batch: { batchSize: 2, batchInterval: 150 } } },
			},
			[1, 2, 3].map((n) => ({ n })),
		);
		const [first, , third] = receiver.requests.map((r) => r.receivedAt);
		expect(third - first).toBeGreaterThanOrEqual(140);
	});
});

describe('errors: per item, with the item index, Continue On Fail keeps the others', () => {
	const failSecond: Responder = (request, res) => {
		if (bodyJson(request).data.message === 'b') {
			res.writeHead(404, { 'Content-Type': 'application/json' });
			res.end('{"error":"unknown_automation"}');
		} else acceptWithJson(request, res, undefined as never);
	};
	const items = [{ m: 'a' }, { m: 'b' }, { m: 'c' }];

	it('without Continue On Fail the node fails naming the item; the error says how to fix', async () => {
		receiver.respondWith(failSecond);
		const result = await run({ message: '={{ $json.m }}' }, items);
		expect(result.status).toBe('error');
		const error = errorOf(result, NODE_NAME)!;
		expect(error.message).toBe('No automation found for id "auto-42" (404)');
		expect(error.description).toMatch(/Check the automation id/);
		expect((error as unknown as { context: { itemIndex: number } }).context.itemIndex).toBe(1);
	});

	it('Continue (regular output): the failing item carries the error, the others their runs', async () => {
		receiver.respondWith(failSecond);
		const result = await run({ message: '={{ $json.m }}' }, items, {
			onError: 'continueRegularOutput',
		});
		const output = outputOf(result, NODE_NAME);
		expect(output.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(output[0].json.statusCode).toBe(202);
		expect(output[1].json.error).toBe('No automation found for id "auto-42" (404)');
		expect(output[1].json.details).toMatchObject({ httpCode: '404', itemIndex: 1 });
		expect((output[1].json.details as { description: string }).description).toMatch(
			/automation id/,
		);
		expect(output[2].json.statusCode).toBe(202);
		expect(receiver.requests).toHaveLength(3);
	});

	it('Continue (using error output): the failing item goes to the error output', async () => {
		receiver.respondWith(failSecond);
		const result = await run({ message: '={{ $json.m }}' }, items, {
			onError: 'continueErrorOutput',
		});
		expect(outputOf(result, NODE_NAME, 0).map((i) => i.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 2 },
		]);
		const errors = outputOf(result, NODE_NAME, 1);
		expect(errors).toHaveLength(1);
		expect(errors[0].pairedItem).toEqual({ item: 1 });
		expect(errors[0].json.error).toMatch(/404/);
	});

	it('a redirect is refused, not followed, and the error names the Location', async () => {
		receiver.respondWith((_r, res) => {
			res.writeHead(307, { Location: 'http://127.0.0.1:9/elsewhere' });
			res.end();
		});
		const result = await run({ message: 'x' });
		expect(errorOf(result, NODE_NAME)!.message).toBe(
			'The service answered with a redirect (307) to http://127.0.0.1:9/elsewhere',
		);
		expect(receiver.requests).toHaveLength(1);
	});

	it('401 with a Date header: the message compares server time with the signature timestamp', async () => {
		receiver.respondWith((_r, res) => {
			res.writeHead(401, { Date: new Date(Date.now() + 10 * 60_000).toUTCString() });
			res.end('{"error":"expired_signature"}');
		});
		const result = await run({ message: 'x' });
		const error = errorOf(result, NODE_NAME)!;
		expect(error.message).toBe('The service rejected the signature (401)');
		expect(error.description).toMatch(
			/clock is (599|600|601) s behind the service's, more than the 5 minutes/,
		);
		expect(error.description).toMatch(/expired_signature/);
	});
});

describe('a 429 the node gave up on: its advice fits how the item was sent', () => {
	const turnAwayAll = () =>
		receiver.respondWith((_request, res) => {
			res
				.writeHead(429, { 'Retry-After': '0', 'Content-Type': 'application/json' })
				.end('{"message":"busy"}');
		});

	it('one item under Adaptive, retries spent: raise Retries When Not Accepted or run later, and no Sending mode', async () => {
		turnAwayAll();
		const result = await run({ message: 'Go', options: { retries: 2 } });
		const error = errorOf(result, NODE_NAME);
		expect(error?.message).toMatch(
			/^Rate limited by the service \(429\): turned away 3 times in (under 1|\d+) s, retries spent$/,
		);
		expect(error?.description).toMatch(
			/^Raise Options → Retries When Not Accepted \(now 2; about one per second of a busy spell\), or run this item again later, when the service is less busy: it turned this item away 3 times in (under 1|\d+) s\. The service said: busy\./,
		);
		expect(error?.description).not.toMatch(/Sending|One at a Time|Fixed Batches|Batch/);
		expect(receiver.requests).toHaveLength(3);
	});

	it('Fixed Batches of 50 (the default) with one item: one request at once, so no batch advice', async () => {
		turnAwayAll();
		const result = await run({ message: 'Go', options: { retries: 1, sending: 'batches' } });
		const error = errorOf(result, NODE_NAME);
		expect(error?.description).toMatch(/^Raise Options → Retries When Not Accepted \(now 1; /);
		expect(error?.description).not.toMatch(/Fixed Batches|Batch/);
	});

	it('Fixed Batches, retries spent: also fewer per batch or a longer interval, with the requests it really sent at once', async () => {
		turnAwayAll();
		const result = await run(
			{
				message: '={{ $json.n }}',
				options: { retries: 1, sending: 'batches', batching: { batch: { batchSize: 3 } } },
			},
			[{ n: 0 }, { n: 1 }, { n: 2 }],
			{ onError: 'continueRegularOutput' },
		);
		for (const item of outputOf(result, NODE_NAME)) {
			const { description } = item.json.details as { description: string };
			expect(description).toContain('Raise Options → Retries When Not Accepted (now 1; ');
			expect(description).toContain(
				'Fixed Batches sent up to 3 requests at once: fewer per batch (Options → Batching → Items per Batch)',
			);
		}
		// Batches of 10 over 7 items: never more than 7 in flight, and the advice says 7, not 10.
		const seven = await run(
			{
				message: '={{ $json.n }}',
				options: { retries: 0, sending: 'batches', batching: { batch: { batchSize: 10 } } },
			},
			Array.from({ length: 7 }, (_, n) => ({ n })),
			{ onError: 'continueRegularOutput' },
		);
		for (const item of outputOf(seven, NODE_NAME)) {
			const { description } = item.json.details as { description: string };
			expect(description).toContain('Fixed Batches sent up to 7 requests at once');
		}
	});
});
