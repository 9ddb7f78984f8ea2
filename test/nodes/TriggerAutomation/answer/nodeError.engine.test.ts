import type { IRun } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { engineReceiver } from '../../../support/engineReceiver';
import { limitedService } from '../../../support/limitedService';
import { bodyJson } from '../../../support/receiver';
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
