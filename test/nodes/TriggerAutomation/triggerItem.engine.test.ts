import { describe, expect, it } from 'vitest';

import { errorOf, outputOf } from '../../../dev/engine';
import { engineReceiver, timestampOf } from '../../support/engineReceiver';
import { acceptWithJson, bodyJson } from '../../support/receiver';
import { NODE_NAME } from '../../support/workflows';

const { receiver, run } = engineReceiver();

describe("retries re-sign: n8n's Retry On Fail and the node's own retry", () => {
	it('Retry On Fail re-runs the node and every attempt carries a fresh signature', async () => {
		let calls = 0;
		receiver.respondWith((request, res) => {
			calls++;
			if (calls === 1) {
				res.writeHead(500);
				res.end('busy');
			} else acceptWithJson(request, res, undefined as never);
		});
		const result = await run({ message: 'x' }, undefined, {
			retryOnFail: true,
			maxTries: 2,
			waitBetweenTries: 10,
		});
		expect(result.status).toBe('success');
		expect(receiver.requests).toHaveLength(2);
		const [first, second] = receiver.requests.map((r) => r.headers['x-service-signature']);
		expect(first).not.toBe(second);
		expect(timestampOf(receiver.requests[1])).toBeGreaterThan(timestampOf(receiver.requests[0]));
	});

	it('Retry On Fail with Continue: a retry re-sends only the failed item, never an accepted one', async () => {
		// n8n retries a node whose first output item is an error item, even with Continue On Fail.
		let failedOnce = false;
		receiver.respondWith((request, res) => {
			if (bodyJson(request).data.message === 'a' && !failedOnce) {
				failedOnce = true;
				res.writeHead(503);
				res.end();
			} else acceptWithJson(request, res, undefined as never);
		});
		const result = await run({ message: '={{ $json.m }}' }, [{ m: 'a' }, { m: 'b' }, { m: 'c' }], {
			retryOnFail: true,
			maxTries: 2,
			waitBetweenTries: 10,
			onError: 'continueRegularOutput',
		});
		expect(receiver.requests.map((r) => bodyJson(r).data.message)).toEqual(['a', 'b', 'c', 'a']);
		expect(outputOf(result, NODE_NAME).map((item) => item.json.statusCode)).toEqual([
			202, 202, 202,
		]);
	});

	it('a 429 is re-sent after Retry-After with a fresh signature (Retries When Not Accepted)', async () => {
		receiver.respondWith((request, res) => {
			if (receiver.requests.length === 1) {
				res.writeHead(429, { 'Retry-After': '1' });
				res.end();
			} else acceptWithJson(request, res, undefined as never);
		});
		const result = await run({ message: 'x', options: { retries: 1 } });
		expect(result.status).toBe('success');
		expect(receiver.requests).toHaveLength(2);
		const [a, b] = receiver.requests;
		expect(b.receivedAt - a.receivedAt).toBeGreaterThanOrEqual(900);
		expect(a.headers['x-service-signature']).not.toBe(b.headers['x-service-signature']);
		expect(a.body.equals(b.body)).toBe(true);
	});

	it('a 500 is never re-sent by the node itself (the run may exist)', async () => {
		receiver.respondWith((_r, res) => {
			res.writeHead(500);
			res.end();
		});
		const result = await run({ message: 'x', options: { retries: 3 } });
		expect(errorOf(result, NODE_NAME)!.description).toMatch(/may or may not have been created/);
		expect(receiver.requests).toHaveLength(1);
	});
});
