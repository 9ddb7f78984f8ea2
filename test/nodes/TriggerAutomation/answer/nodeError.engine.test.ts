import type { IRun } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { errorOf } from '../../../../dev/engine';
import { engineReceiver } from '../../../support/engineReceiver';
import { limitedService } from '../../../support/limitedService';
import { acceptWithJson, bodyJson } from '../../../support/receiver';
import { NODE_NAME } from '../../../support/workflows';

const { receiver, run } = engineReceiver();

const hintsOf = (result: IRun) => result.data.resultData.runData[NODE_NAME][0].hints ?? [];

describe('the hints n8n shows above the output', () => {
	it('Preview Only: nothing was sent and no run was created, with the option to turn off', async () => {
		const result = await run({ message: 'Go', options: { previewOnly: true } }, [{}, {}]);
		expect(hintsOf(result)).toEqual([
			{
				type: 'warning',
				location: 'outputPane',
				message:
					"Preview only: nothing was sent and no run was created. Turn off Options → Preview Only (Don't Send) to start runs.",
			},
		]);
		expect(receiver.requests).toHaveLength(0);
	});

	it('Continue On Fail: how many items failed, how many may have created a run, and what to do', async () => {
		receiver.respondWith((request, res) => {
			const status = { a: 202, b: 500, c: 404 }[bodyJson(request).data.message as 'a' | 'b' | 'c'];
			res.writeHead(status, { 'Content-Type': 'application/json' }).end('{}');
		});
		const result = await run({ message: '={{ $json.m }}' }, [{ m: 'a' }, { m: 'b' }, { m: 'c' }], {
			onError: 'continueRegularOutput',
		});
		expect(hintsOf(result).map((hint) => hint.message)).toEqual([
			"2 of 3 items failed; 1 of them may have created a run: check the automation's run history before running it again. The others created no run: fix what their errors say, then run them again.",
		]);
	});

	it('Continue On Fail, no item may have run: fix and run again', async () => {
		const result = await run({ message: '={{ $json.m }}' }, [{ m: 'a' }, { m: '' }], {
			onError: 'continueRegularOutput',
		});
		expect(hintsOf(result).map((hint) => hint.message)).toEqual([
			'1 of 2 items failed and created no run: fix what their errors say, then run them again.',
		]);
	});

	it('a rate-limited service: how many requests it turned away, how long the node waited, and that every item was accepted once', async () => {
		const seen = limitedService(receiver, { latencyMs: () => 5, perSecond: 5 });
		const startedAt = Date.now();
		const result = await run(
			{ message: '={{ $json.n }}' },
			Array.from({ length: 12 }, (_, n) => ({ n })),
		);
		const tookMs = Date.now() - startedAt;
		expect(result.status).toBe('success');
		expect(seen.tooMany).toBeGreaterThan(0);
		const [hint, ...others] = hintsOf(result);
		expect(others).toEqual([]);
		expect(hint).toMatchObject({ type: 'info', location: 'outputPane' });
		const figures = new RegExp(
			`^The service turned away ${seen.tooMany} requests without creating a run; the node waited (\\d+) s in all and sent them again\\. All 12 items were accepted, each once\\.$`,
		).exec(hint.message);
		expect(figures).not.toBeNull();
		// At least the Retry-After of 1 s, at most the whole run.
		expect(Number(figures![1])).toBeGreaterThanOrEqual(1);
		expect(Number(figures![1]) * 1000).toBeLessThanOrEqual(tookMs + 500);
	});

	it('Continue On Fail, a service that turns every request away: the items failed, after the re-sends allowed', async () => {
		receiver.respondWith((_request, res) => {
			res.writeHead(429, { 'Retry-After': '0' }).end();
		});
		const result = await run({ message: '={{ $json.n }}', options: { retries: 1 } }, [{ n: 0 }], {
			onError: 'continueRegularOutput',
		});
		expect(hintsOf(result).map((hint) => hint.message)).toEqual([
			'The service turned away 2 requests without creating a run; the node waited under 1 s in all and sent 1 of them again. The item failed: its error says why.',
			'1 of 1 item failed and created no run: fix what their errors say, then run them again.',
		]);
	});

	it('a run where every item was accepted shows no hint', async () => {
		const result = await run({ message: 'Go' }, [{}, {}]);
		expect(hintsOf(result)).toEqual([]);
	});
});

describe('the error that stops the node, in an execution of five items whose third fails with a 500', () => {
	const FIVE = ['a', 'b', 'c', 'd', 'e'].map((m) => ({ m }));
	const thirdFails = () =>
		receiver.respondWith((request, res) => {
			if (bodyJson(request).data.message !== 'c')
				return acceptWithJson(request, res, undefined as never);
			res.writeHead(500, { 'Content-Type': 'application/json' }).end('{"message":"busy"}');
		});

	it("says how many others were accepted and what n8n's Retry sends, itself included as it may have run", async () => {
		thirdFails();
		const failed = await run(
			{ message: '={{ $json.m }}', options: { sending: 'oneAtATime' } },
			FIVE,
		);
		const error = errorOf(failed, NODE_NAME);
		expect(error?.description).toContain("check the automation's run history");
		expect(error?.description).toContain(
			"The service accepted 2 other items: n8n's Retry of this execution passes them on without sending them again, and sends only the items not accepted, this one included. If that Retry fails too, retry it rather than this execution.",
		);
		// What the service said ("busy") ends with a full stop before the note, not run into it.
		expect(error?.description).toContain('The service said: busy. Item 2');
	});

	it('names the failing item as n8n does, from 0, and by its place from 1, so that a count beside it cannot be read as including it', async () => {
		thirdFails();
		const error = errorOf(await run({ message: '={{ $json.m }}' }, FIVE), NODE_NAME);
		expect(error?.context.itemIndex).toBe(2);
		expect(error?.description).toContain('Item 2 is the 3rd of 5 items (n8n counts from 0).');
		expect(error?.description).not.toMatch(/\d+ of 5 items were accepted/);
	});
});
