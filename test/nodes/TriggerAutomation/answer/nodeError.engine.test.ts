import type { IRun } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { engineReceiver } from '../../../support/engineReceiver';
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

	it('a run where every item was accepted shows no hint', async () => {
		const result = await run({ message: 'Go' }, [{}, {}]);
		expect(hintsOf(result)).toEqual([]);
	});
});
