/**
 * What n8n shows above the node's output after a run (execution hints): that a preview sent
 * nothing, and, under Continue On Fail, how many items failed and what to do about them.
 */
import type { NodeExecutionHint } from 'n8n-workflow';

import { LABELS, inOptions } from './description';

export function previewHint(): NodeExecutionHint {
	return {
		type: 'warning',
		location: 'outputPane',
		message: `Preview only: nothing was sent and no run was created. Turn off ${inOptions(LABELS.preview)} to start runs.`,
	};
}

/** `failed` items of `total` failed; `mayHaveRun` of them may have created a run. */
export function failuresHint(failed: number, mayHaveRun: number, total: number): NodeExecutionHint {
	const items = `${failed} of ${total} item${total === 1 ? '' : 's'}`;
	const message =
		mayHaveRun === 0
			? `${items} failed and created no run: fix what their errors say, then run them again.`
			: `${items} failed; ${mayHaveRun} of them may have created a run: check the automation's run history before running ${mayHaveRun === 1 ? 'it' : 'those'} again. ` +
				(mayHaveRun < failed
					? 'The others created no run: fix what their errors say, then run them again.'
					: '');
	return { type: 'warning', location: 'outputPane', message: message.trim() };
}
