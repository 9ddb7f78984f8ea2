/**
 * What is sent: the items, the exact body bytes the node produces for them, and workflows of the
 * form Start → Trigger Automation built as test/support/workflows.ts builds them (rebuilt here so
 * the bench does not depend on test code): Start is n8n's Manual Trigger with the items pinned.
 */
import type { IDataObject, INode, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { manualTriggerNode, pinnedItems } from '../dev/baseNodes';
import type { RunOptions } from '../dev/engine';

export const SECRET = 'whsec_bench_0123456789abcdef';
export const AUTOMATION_ID = 'bench-automation';
export const WEBHOOK_PATH = `/webhooks/cloud/${AUTOMATION_ID}`;
export const MESSAGE = 'Check the order and email the customer a confirmation';

export const TRIGGER_NODE_TYPE = 'n8n-nodes-automation-service.triggerAutomation';
export const CREDENTIAL_TYPE = 'serviceWebhookSecretApi';
export const TARGET_NAME = 'Trigger Automation';

/** An order-like item of about 300 bytes of JSON. */
export function orderItem(index: number): IDataObject {
	return {
		orderId: 100_000 + index,
		customer: { name: `Customer ${index}`, email: `customer${index}@example.com`, tier: 'gold' },
		total: Math.round(index * 137.31) / 100,
		currency: 'EUR',
		lines: [
			{ sku: `SKU-${index % 97}`, qty: 1 + (index % 5), price: 19.9 },
			{ sku: `SKU-${index % 89}`, qty: 1, price: 4.5 },
		],
		note: 'Leave the parcel at the side door',
	};
}

export function orderItems(count: number): IDataObject[] {
	return Array.from({ length: count }, (_, index) => orderItem(index));
}

/** The body the node sends for an item with Context = All Input Fields. */
export function bodyFor(context: IDataObject): Buffer {
	return Buffer.from(JSON.stringify({ data: { message: MESSAGE, context } }), 'utf8');
}

/** Trigger Automation parameters: the item as context, `concurrency` requests at a time. */
export function triggerParameters(concurrency: number): INodeParameters {
	return {
		message: MESSAGE,
		contextMode: 'allFields',
		options: { batching: { batch: { batchSize: concurrency, batchInterval: 0 } } },
	};
}

/** A start node with the items it outputs as its pinned data. */
export interface PinnedStart {
	node: INode;
	items: INodeExecutionData[];
}

/** Start: n8n's Manual Trigger with `items` pinned, as the tests build it. */
export function startNode(items: IDataObject[]): PinnedStart {
	return { node: manualTriggerNode('Start'), items: pinnedItems(items) };
}

export function targetNode(
	type: string,
	parameters: INodeParameters,
	withCredential: boolean,
): INode {
	return {
		id: 'target',
		name: TARGET_NAME,
		type,
		typeVersion: 1,
		position: [200, 0],
		parameters,
		...(withCredential
			? { credentials: { [CREDENTIAL_TYPE]: { id: 'cred-1', name: 'Automation webhook' } } }
			: {}),
	};
}

/** start (a node, or one with pinned items) → target, with the credential data of the package's credential. */
export function workflow(
	start: INode | PinnedStart,
	target: INode,
	receiverUrl: string,
): RunOptions {
	const { node, items } = 'node' in start ? start : { node: start, items: undefined };
	return {
		workflow: {
			nodes: [node, target],
			connections: { [node.name]: { main: [[{ node: target.name, type: 'main', index: 0 }]] } },
		},
		pinData: items && { [node.name]: items },
		credentials: {
			[CREDENTIAL_TYPE]: { webhookUrl: `${receiverUrl}${WEBHOOK_PATH}`, signingSecret: SECRET },
		},
	};
}

/** Start → Trigger Automation, as a user builds it. */
export function triggerWorkflow(items: IDataObject[], concurrency: number, receiverUrl: string) {
	const target = targetNode(TRIGGER_NODE_TYPE, triggerParameters(concurrency), true);
	return workflow(startNode(items), target, receiverUrl);
}
