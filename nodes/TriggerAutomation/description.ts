import type { INodeProperties } from 'n8n-workflow';

/** Used when an option is not set; the parameters below repeat them as literals (n8n's lint). */
export const DEFAULTS = {
	timeoutMs: 30000,
	batchSize: 50,
	batchIntervalMs: 1000,
} as const;

export type ContextMode = 'none' | 'allFields' | 'selectedFields' | 'json';

export const nodeProperties: INodeProperties[] = [
	{
		displayName: 'Message',
		name: 'message',
		type: 'string',
		required: true,
		default: '',
		typeOptions: { rows: 4 },
		placeholder: 'e.g. Summarise the attached order and email the customer',
		description:
			'Instructions for the AI, as you would type them in chat. Sent as data.message. Numbers and booleans from expressions become text; an object must be turned into text first, e.g. with JSON.stringify().',
	},
	{
		displayName: 'Context',
		name: 'contextMode',
		type: 'options',
		noDataExpression: true,
		default: 'none',
		description: 'Data passed along to the run as data.context',
		options: [
			{
				name: 'None',
				value: 'none',
				description: 'Send the message only (data.context is left out)',
			},
			{
				name: 'All Input Fields',
				value: 'allFields',
				description: "Send the input item's JSON as the context",
			},
			{
				name: 'Selected Fields',
				value: 'selectedFields',
				description: 'Name each field and its value, as in the Edit Fields node',
			},
			{
				name: 'JSON',
				value: 'json',
				description: 'Write the context as a JSON object',
			},
		],
	},
	{
		displayName: 'Context Fields',
		name: 'contextFields',
		type: 'assignmentCollection',
		default: {},
		displayOptions: { show: { contextMode: ['selectedFields'] } },
		description:
			'Fields of data.context. Names are used as written (a dot is part of the name). Each value is checked against its type.',
	},
	{
		displayName: 'Context (JSON)',
		name: 'contextJson',
		type: 'json',
		default: '{\n  "key": "value"\n}',
		displayOptions: { show: { contextMode: ['json'] } },
		description: 'A JSON object sent as data.context',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		options: [
			{
				displayName: 'Batching',
				name: 'batching',
				type: 'fixedCollection',
				placeholder: 'Add Batching',
				default: { batch: {} },
				description:
					'Send the items in batches; each batch waits for its answers before the next starts. Without batching, items are sent one after another.',
				options: [
					{
						displayName: 'Batching',
						name: 'batch',
						values: [
							{
								displayName: 'Items per Batch',
								name: 'batchSize',
								type: 'number',
								typeOptions: { minValue: -1 },
								default: 50,
								description:
									'How many requests are in flight at once. -1 sends all items in one batch.',
							},
							{
								displayName: 'Batch Interval (Ms)',
								name: 'batchInterval',
								type: 'number',
								typeOptions: { minValue: 0 },
								default: 1000,
								description:
									'Time to wait after a batch has finished before the next one starts, in milliseconds',
							},
						],
					},
				],
			},
			{
				displayName: 'Ignore SSL Issues (Insecure)',
				name: 'allowUnauthorizedCerts',
				type: 'boolean',
				noDataExpression: true,
				default: false,
				description: 'Whether to connect even if SSL certificate validation is not possible',
			},
			{
				displayName: 'Include Response Headers and Status',
				name: 'fullResponse',
				type: 'boolean',
				default: false,
				description:
					'Whether to add the response headers and status message to the output (the status code is always there)',
			},
			{
				displayName: 'Retries When Not Accepted',
				name: 'retries',
				type: 'number',
				typeOptions: { minValue: 0, maxValue: 10 },
				default: 2,
				description:
					'How often to re-send, freshly signed, a request the service provably did not accept: connection refused, or 429 Too Many Requests (waiting for Retry-After, at most 60 s). Other failures are never re-sent, so no run is created twice.',
			},
			{
				displayName: 'Timeout',
				name: 'timeout',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 30000,
				description: 'Time in milliseconds to wait for the service to answer before the item fails',
			},
		],
	},
];
