import type { INodeProperties } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { errorOf, outputOf } from '../../../../dev/engine';
import { nodeProperties } from '../../../../nodes/TriggerAutomation/description';
import { engineReceiver } from '../../../support/engineReceiver';
import type { Responder } from '../../../support/receiver';
import { acceptWithJson, bodyJson } from '../../../support/receiver';
import { NODE_NAME } from '../../../support/workflows';

const { receiver, run } = engineReceiver();

/**
 * A service that notes the most requests it had in flight at once. With `holdFor`, it answers none
 * until that many are in flight (or 5 s passed): on a loaded machine the first answers could
 * otherwise go out before the last requests of one batch arrive.
 */
function concurrencyProbe(delayMs: number, holdFor = 0) {
	let inFlight = 0;
	let peak = 0;
	const waiting: Array<() => void> = [];
	const responder: Responder = async (request, res) => {
		inFlight++;
		peak = Math.max(peak, inFlight);
		if (peak < holdFor) {
			await new Promise<void>((release) => {
				const timer = setTimeout(release, 5000);
				waiting.push(() => {
					clearTimeout(timer);
					release();
				});
			});
		}
		for (const release of waiting.splice(0)) release();
		await new Promise((done) => setTimeout(done, delayMs));
		inFlight--;
		acceptWithJson(request, res, undefined as never);
	};
	return { responder, peak: () => peak };
}

describe('Options → Sending and Batching, read as the HTTP Request node users know them', () => {
	it('Sending → One at a Time: items go one at a time in item order', async () => {
		const probe = concurrencyProbe(20);
		receiver.respondWith(probe.responder);
		await run(
			{ message: '={{ $json.n }}', options: { sending: 'oneAtATime' } },
			[1, 2, 3, 4].map((n) => ({ n })),
		);
		expect(probe.peak()).toBe(1);
		expect(receiver.requests.map((r) => bodyJson(r).data.message)).toEqual(['1', '2', '3', '4']);
	});

	it('Batching added without Sending means Fixed Batches, as in the HTTP Request node: with 3 items per batch, at most 3 requests are in flight, and all 7 items are sent', async () => {
		const probe = concurrencyProbe(30, 3);
		receiver.respondWith(probe.responder);
		const result = await run(
			{
				message: '={{ $json.n }}',
				options: { batching: { batch: { batchSize: 3, batchInterval: 0 } } },
			},
			[1, 2, 3, 4, 5, 6, 7].map((n) => ({ n })),
		);
		expect(probe.peak()).toBe(3);
		expect(outputOf(result, NODE_NAME).map((i) => i.pairedItem)).toEqual(
			[0, 1, 2, 3, 4, 5, 6].map((item) => ({ item })),
		);
	});

	it('Batching beside Sending at Adaptive, its default, is Fixed Batches: at most 3 requests in flight, all 7 items sent', async () => {
		const probe = concurrencyProbe(30, 3);
		receiver.respondWith(probe.responder);
		const result = await run(
			{
				message: '={{ $json.n }}',
				options: { sending: 'adaptive', batching: { batch: { batchSize: 3, batchInterval: 0 } } },
			},
			[1, 2, 3, 4, 5, 6, 7].map((n) => ({ n })),
		);
		expect(probe.peak()).toBe(3);
		expect(outputOf(result, NODE_NAME)).toHaveLength(7);
	});

	it('Items per Batch -1 sends every item in one batch', async () => {
		const probe = concurrencyProbe(30, 9);
		receiver.respondWith(probe.responder);
		await run(
			{
				message: '={{ $json.n }}',
				options: { batching: { batch: { batchSize: -1, batchInterval: 0 } } },
			},
			Array.from({ length: 9 }, (_, n) => ({ n })),
		);
		expect(probe.peak()).toBe(9);
	});
});

/** The options a user can add under Options, as the node describes them to the editor. */
const OPTIONS = nodeProperties.find((p) => p.name === 'options')!.options as INodeProperties[];

/** Every set of them: a bit of the index per option. */
const EVERY_SET = Array.from({ length: 2 ** OPTIONS.length }, (_, set) =>
	OPTIONS.filter((_, bit) => set & (2 ** bit)),
);

describe('every set of options a user can add, each left at the default the editor shows, runs', () => {
	it('there are 7 options, so 128 sets', () => {
		expect(EVERY_SET).toHaveLength(128);
	});

	// The editor adds an option with a copy of its `default` (n8n's CollectionParameter.vue).
	it.each(EVERY_SET.map((added) => [added.map((o) => o.displayName).join(' + ') || 'none', added]))(
		'%s: the item is sent once and accepted',
		async (_name, added) => {
			const options = Object.fromEntries(
				(added as INodeProperties[]).map((o) => [o.name, structuredClone(o.default)]),
			);
			const result = await run({ message: 'Go', options });
			expect(errorOf(result, NODE_NAME)).toBeUndefined();
			expect(outputOf(result, NODE_NAME).map((i) => i.json.statusCode)).toEqual([202]);
			expect(receiver.requests).toHaveLength(1);
		},
	);
});

describe('Options → Retries When Not Accepted: no maximum the field cuts, a bound the node names', () => {
	it('120 is taken as it is: a 429 answered 30 times is sent a 31st time and accepted', async () => {
		let turnedAway = 0;
		receiver.respondWith((request, res) => {
			if (turnedAway++ < 30) res.writeHead(429, { 'Retry-After': '0' }).end();
			else acceptWithJson(request, res, undefined as never);
		});
		const result = await run({ message: 'Go', options: { retries: 120 } });
		expect(outputOf(result, NODE_NAME).map((i) => i.json.statusCode)).toEqual([202]);
		expect(receiver.requests).toHaveLength(31);
	});

	it('above 5000, every item fails before anything is sent, naming the bound', async () => {
		const result = await run({ message: 'Go', options: { retries: 5001 } }, [{}, {}]);
		expect(errorOf(result, NODE_NAME)?.message).toBe(
			'Options → Retries When Not Accepted must be a whole number from 0 to 5000, got 5001',
		);
		expect(receiver.requests).toHaveLength(0);
	});
});
