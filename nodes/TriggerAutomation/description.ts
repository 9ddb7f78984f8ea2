import type { INodeProperties } from 'n8n-workflow';

import { MAX_IN_FLIGHT, MAX_RETRIES } from './limits';
import { panelEventsProperty } from './nodesPanel';
import { RESEND_POLICY, plain } from './resendWords';

/** The labels the editor shows; error messages name the fields with the same words. */
export const LABELS = {
	message: 'Message',
	context: 'Context',
	contextFields: 'Context Fields',
	contextJson: 'Context (JSON)',
	batching: 'Batching',
	batchSize: 'Items per Batch',
	batchInterval: 'Batch Interval (Ms)',
	ignoreSsl: 'Ignore SSL Issues (Insecure)',
	includeHeaders: 'Include Response Headers and Status',
	preview: "Preview Only (Don't Send)",
	retries: 'Retries When Not Accepted',
	sending: 'Sending',
	timeout: 'Timeout',
} as const;

/** Where a user finds a field of the Options collection: "Options → Timeout". */
export function inOptions(...path: string[]): string {
	return ['Options', ...path].join(' → ');
}

/** Context's choices: the label, what the editor says of it, and the node's subtitle for it. */
const CONTEXT_MODES = {
	none: {
		name: 'None',
		description: 'Send the message only (data.context is left out)',
		subtitle: 'Message only',
	},
	allFields: {
		name: 'All Input Fields',
		description: "Send the input item's JSON as the context",
		subtitle: 'Message + all input fields',
	},
	selectedFields: {
		name: 'Selected Fields',
		description: 'Name each field and its value, as in the Edit Fields node',
		subtitle: 'Message + selected fields',
	},
	json: {
		name: 'JSON',
		description: 'Write the context as a JSON object',
		subtitle: 'Message + JSON context',
	},
} as const;

export type ContextMode = keyof typeof CONTEXT_MODES;

/** Sending's choices: the label, and what the editor says of it. */
export const SENDING_MODES = {
	adaptive: {
		name: 'Adaptive',
		description: `As fast as the service accepts, shared by the executions sending to it (up to ${MAX_IN_FLIGHT} requests at once); after a 429 it waits, then follows the rate the service accepts as it moves; runs may start out of item order. With Batching added: Fixed Batches.`,
	},
	batches: {
		name: 'Fixed Batches',
		description: 'The Items per Batch and Batch Interval set under Batching',
	},
	oneAtATime: {
		name: 'One at a Time',
		description: 'One request at a time, so runs start in item order',
	},
} as const;

export type SendingMode = keyof typeof SENDING_MODES;

/** "Context → Selected Fields": where a user picks a Context choice. */
export function inContext(mode: ContextMode): string {
	return `${LABELS.context} → ${CONTEXT_MODES[mode].name}`;
}

/** The subtitle's first words while Options → Preview Only is on: the canvas shows nothing is sent. */
export const PREVIEW_SUBTITLE = 'Preview only, nothing sent';

/** The node's subtitle on the canvas: what it sends, by Context choice, or that it sends nothing. */
export const SUBTITLE = `={{ ($parameter["options"]["previewOnly"] ? ${JSON.stringify(`${PREVIEW_SUBTITLE}: `)} : "") + ${JSON.stringify(
	Object.fromEntries(Object.entries(CONTEXT_MODES).map(([mode, { subtitle }]) => [mode, subtitle])),
)}[$parameter["contextMode"]] }}`;

/**
 * Shown at the top of the node's panel, before anyone runs it: executing a node after this one
 * runs this one again while it has no output in the session (n8n runs a node's parents first), and
 * each of those runs starts real automation runs. n8n saves no value for a notice.
 */
export const RUNS_NOTICE: INodeProperties = {
	displayName:
		'Each run of this node starts one automation run per item (Preview Only sends nothing). Executing a node after it runs this one again while it has no output: to work on those nodes without starting more runs, execute this node once, then pin its output (Pin data, in its output panel).',
	name: 'runsNotice',
	type: 'notice',
	default: '',
};

export const nodeProperties: INodeProperties[] = [
	panelEventsProperty,
	RUNS_NOTICE,
	{
		displayName: LABELS.message,
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
		displayName: LABELS.context,
		name: 'contextMode',
		type: 'options',
		noDataExpression: true,
		default: 'none',
		description: 'Data passed along to the run as data.context',
		options: Object.entries(CONTEXT_MODES).map(([value, { name, description }]) => ({
			name,
			value,
			description,
		})),
	},
	{
		displayName: LABELS.contextFields,
		name: 'contextFields',
		type: 'assignmentCollection',
		default: {},
		displayOptions: { show: { contextMode: ['selectedFields'] } },
		description:
			'Fields of data.context. Names are used as written (a dot is part of the name). Each value is checked against its type.',
	},
	{
		displayName: LABELS.contextJson,
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
				displayName: LABELS.batching,
				name: 'batching',
				type: 'fixedCollection',
				placeholder: 'Add Batching',
				default: { batch: {} },
				description:
					'Send in fixed batches, as the HTTP Request node does: each batch waits for its answers before the next starts. Added, it means Sending → Fixed Batches (also beside Sending at Adaptive, its default).',
				options: [
					{
						displayName: LABELS.batching,
						name: 'batch',
						values: [
							{
								displayName: LABELS.batchSize,
								name: 'batchSize',
								type: 'number',
								typeOptions: { minValue: -1 },
								default: 50,
								description:
									'How many requests are in flight at once. -1 sends all items in one batch.',
							},
							{
								displayName: LABELS.batchInterval,
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
				displayName: LABELS.ignoreSsl,
				name: 'allowUnauthorizedCerts',
				type: 'boolean',
				noDataExpression: true,
				default: false,
				description: 'Whether to connect even if SSL certificate validation is not possible',
			},
			{
				displayName: LABELS.includeHeaders,
				name: 'fullResponse',
				type: 'boolean',
				default: false,
				description:
					'Whether to add the response headers and status message to the output (the status code is always there)',
			},
			{
				displayName: LABELS.preview,
				name: 'previewOnly',
				type: 'boolean',
				noDataExpression: true,
				default: false,
				description:
					'Whether to output, per item, the request that would be sent instead of sending it: method, URL, the headers the node and credential set (the signature shortened), the exact body, its length and SHA-256, the timestamp. Nothing is sent and no run is created.',
			},
			{
				displayName: LABELS.retries,
				name: 'retries',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 5,
				description: `How often an item turned away may be sent again. ${[RESEND_POLICY.what, RESEND_POLICY.after, RESEND_POLICY.giveUp, RESEND_POLICY.costs].map(plain).join(' ')} To wait out a busy spell, allow about one per second of it (120: 2 minutes), up to ${MAX_RETRIES}.`,
			},
			{
				displayName: LABELS.sending,
				name: 'sending',
				type: 'options',
				noDataExpression: true,
				default: 'adaptive',
				description: 'How many requests are in flight at once',
				options: Object.entries(SENDING_MODES).map(([value, { name, description }]) => ({
					name,
					value,
					description,
				})),
			},
			{
				displayName: LABELS.timeout,
				name: 'timeout',
				type: 'number',
				typeOptions: { minValue: 1 },
				default: 30000,
				description: 'Time in milliseconds to wait for the service to answer before the item fails',
			},
		],
	},
];

/**
 * The defaults the editor shows, which request/settings.ts also uses when a value is left empty. n8n's lint
 * wants each `default` above written as a literal; test/nodes/TriggerAutomation/description.test.ts holds the two equal.
 */
export const DEFAULTS = {
	timeoutMs: 30000,
	batchSize: 50,
	batchIntervalMs: 1000,
	retries: 5,
	sending: 'adaptive',
} as const;
