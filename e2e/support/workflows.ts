/**
 * Workflows of n8n's own nodes that only the end-to-end suite and the compatibility run import,
 * beside the examples: several items with one bad, a credential whose secret is wrong or padded, and
 * n8n's HTTP Request node with the credential. And the order example, imported on its own.
 */
import { randomUUID } from 'node:crypto';

import type { WorkflowFile } from '../../dev/exampleFiles';
import { CREDENTIAL_TYPE, credentialsOf, readExamples, workflowId } from '../../dev/exampleFiles';
import type { N8nInstance } from '../../dev/n8nApp';
import { NODE_TYPE } from '../../dev/packageNames';

const ORDER_FILE = 'order-to-automation.json';

/**
 * Imports the order example (Manual Trigger → Edit Fields → node) and its credential, pointed at
 * `data`'s webhook, into `n8n`; resolves to the workflow as imported, with its id.
 */
export async function importOrderExample(
	n8n: N8nInstance,
	data: { webhookUrl: string; signingSecret: string },
): Promise<WorkflowFile & { id: string }> {
	const { workflow } = readExamples().find((example) => example.file === ORDER_FILE)!;
	const order = { ...workflow, id: workflowId(ORDER_FILE) };
	await n8n.import('credentials', credentialsOf(order, data));
	await n8n.import('workflow', [order]);
	return order;
}

const manualTrigger = {
	id: 'e2e-manual',
	name: 'Manual Trigger',
	type: 'n8n-nodes-base.manualTrigger',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

/** A production Webhook (POST `path`) that answers with the last node's items once the run ends. */
export function webhookNode(id: string, path: string) {
	return {
		id,
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0],
		webhookId: randomUUID(),
		parameters: {
			httpMethod: 'POST',
			path,
			responseMode: 'lastNode',
			responseData: 'allEntries',
			options: {},
		},
	};
}

/** Split Out of the list at `field`, named "One item each". */
function splitOutNode(field: string, x: number) {
	return {
		id: 'e2e-split',
		name: 'One item each',
		type: 'n8n-nodes-base.splitOut',
		typeVersion: 1,
		position: [x, 0],
		parameters: { fieldToSplitOut: field, options: {} },
	};
}

/** Trigger Automation with `parameters` and the credential, at `x`. */
function triggerNode(
	parameters: Record<string, unknown>,
	credential: { id: string; name: string },
	x: number,
) {
	return {
		id: 'e2e-trigger',
		name: 'Trigger Automation',
		type: NODE_TYPE,
		typeVersion: 1,
		position: [x, 0],
		parameters,
		credentials: { [CREDENTIAL_TYPE]: credential },
	};
}

/**
 * Manual Trigger → Edit Fields (raw JSON) → Split Out → Trigger Automation: one item per entry of
 * `items`, each with a `message` field the node sends.
 */
export function itemsWorkflow(spec: {
	id: string;
	name: string;
	items: Array<Record<string, unknown>>;
	credential: { id: string; name: string };
	settings?: Record<string, unknown>;
	/** The node's Options. */
	options?: Record<string, unknown>;
	/** Each execution's messages its own: "<execution id>-<message>". */
	perExecution?: boolean;
}): WorkflowFile {
	return {
		id: spec.id,
		name: spec.name,
		nodes: [
			manualTrigger,
			{
				id: 'e2e-items',
				name: 'Items',
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				position: [200, 0],
				parameters: { mode: 'raw', jsonOutput: JSON.stringify({ items: spec.items }), options: {} },
			},
			splitOutNode('items', 400),
			{
				...triggerNode(
					{
						message: spec.perExecution
							? "={{ $execution.id + '-' + $json.message }}"
							: '={{ $json.message }}',
						contextMode: 'json',
						contextJson: '={{ JSON.stringify({ position: $json.position }) }}',
						options: spec.options ?? {},
					},
					spec.credential,
					600,
				),
				...spec.settings,
			},
		],
		connections: {
			'Manual Trigger': { main: [[{ node: 'Items', type: 'main', index: 0 }]] },
			Items: { main: [[{ node: 'One item each', type: 'main', index: 0 }]] },
			'One item each': { main: [[{ node: 'Trigger Automation', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

/**
 * Webhook (POST `path`, body `{ items: [{ m }] }`) → Split Out → Trigger Automation at its defaults,
 * sending each item's `m` as the message. The Webhook answers once the execution has ended. Active
 * (published), its executions are production ones, which n8n saves even when they fail.
 */
export function webhookItemsWorkflow(spec: {
	id: string;
	name: string;
	path: string;
	credential: { id: string; name: string };
}): WorkflowFile {
	return {
		id: spec.id,
		name: spec.name,
		nodes: [
			webhookNode('e2e-webhook', spec.path),
			splitOutNode('body.items', 200),
			triggerNode({ message: '={{ $json.m }}', options: {} }, spec.credential, 400),
		],
		connections: {
			Webhook: { main: [[{ node: 'One item each', type: 'main', index: 0 }]] },
			'One item each': { main: [[{ node: 'Trigger Automation', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

/** n8n's own HTTP Request node sending the signed POST with this package's credential. */
export function httpRequestWorkflow(
	id: string,
	webhookUrl: string,
	credential: { id: string; name: string },
): WorkflowFile {
	return {
		id,
		name: 'HTTP Request node with the Service Webhook Secret credential',
		nodes: [
			{
				id: 'http-manual',
				name: 'Manual Trigger',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'http-request',
				name: 'HTTP Request',
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				position: [220, 0],
				parameters: {
					method: 'POST',
					url: webhookUrl,
					authentication: 'predefinedCredentialType',
					nodeCredentialType: CREDENTIAL_TYPE,
					sendBody: true,
					specifyBody: 'json',
					jsonBody: JSON.stringify({
						data: { message: 'Sent by the HTTP Request node', context: { via: 'httpRequest' } },
					}),
					options: {},
				},
				credentials: { [CREDENTIAL_TYPE]: credential },
			},
		],
		connections: {
			'Manual Trigger': { main: [[{ node: 'HTTP Request', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}
