/** The matrix's cases: Options. */

import { optionCase } from './shared';
import type { MatrixCase } from './types';

export const optionsCases: MatrixCase[] = [
	// ── Options ─────────────────────────────────────────────────────────────────────────────
	optionCase(
		'timeout-zero',
		'Timeout 0 (e.g. from an expression)',
		{ timeout: '={{ 0 }}' },
		'Options → Timeout must be a whole number from 1 to 2147483647, got 0',
		'Silent; chosen: refuse, rather than no limit or an instant timeout.',
	),
	optionCase(
		'batch-size-not-a-number',
		'Items per Batch from an expression that is not a number',
		{ batching: { batch: { batchSize: '={{ "abc" }}', batchInterval: 0 } } },
		'Options → Items per Batch must be a whole number from -1 to 2147483647, got "abc"',
		'Silent; chosen: refuse (sending no item, or all at once, would surprise).',
	),
	optionCase(
		'batch-size-zero',
		'Items per Batch 0',
		{ batching: { batch: { batchSize: 0, batchInterval: 0 } } },
		'Options → Items per Batch must be at least 1, or -1 for all items at once, got 0',
		'Silent; chosen: refuse.',
	),
	{
		...optionCase(
			'batching-one-at-a-time',
			'Batching set while Sending is One at a Time',
			{ sending: 'oneAtATime', batching: { batch: { batchSize: 5, batchInterval: 0 } } },
			'Options → Batching sends Fixed Batches, but Sending is One at a Time',
			'Silent; chosen: refuse, rather than ignore a choice the user made (Adaptive, the default the editor shows, gives way to Batching).',
		),
		expect: {
			kind: 'error',
			code: 'bad_input',
			message: 'Options → Batching sends Fixed Batches, but Sending is One at a Time',
			description:
				'Remove Batching to send one at a time, or remove Options → Sending to send the batches.',
		},
	},
	optionCase(
		'retries-not-a-number',
		'Retries When Not Accepted from an expression that is not a number',
		{ retries: '={{ "many" }}' },
		'Options → Retries When Not Accepted must be a whole number from 0 to 5000, got "many"',
		'Silent; chosen: refuse (an unbounded retry count would keep re-sending).',
	),
];
