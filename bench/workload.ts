/**
 * What is sent and by which workflows: order-like items, the exact body bytes for them, and the
 * workflows every engine side runs (Start is n8n's Manual Trigger with the items pinned). The
 * package under test is a copy of the fresh build taken when the bench starts, so every phase and
 * child process measures one build even if dist/ is rebuilt meanwhile.
 */
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { IDataObject, INode, INodeParameters } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../credentials/common/credentialType';
import { BASE_PACKAGE, manualTriggerNode, pinnedItems } from '../dev/baseNodes';
import type { RunOptions } from '../dev/engine';
import { PACKAGE_DIR, loadPackage } from '../dev/engine';
import { NODE_TYPE } from '../dev/packageNames';
import { MAX_IN_FLIGHT } from '../nodes/TriggerAutomation/limits';
import { BARE_HTTP_TYPE, BARE_NODE_TYPES } from './bareNodes';

export const SECRET = 'whsec_bench_0123456789abcdef';
export const WEBHOOK_PATH = '/webhooks/cloud/bench-automation';
export const MESSAGE = 'Check the order and email the customer a confirmation';
/** The node whose output and execution time each workflow is judged by. */
export const LAST_NODE = 'Send';

export { PACKAGE_DIR };
export const SNAPSHOT_DIR = join(PACKAGE_DIR, '.dev-dist', 'bench-package');
export const BUILT_SIGNATURE = join(SNAPSHOT_DIR, 'dist/credentials/common/signature.js');

/** Copies package.json and dist/ to SNAPSHOT_DIR (once, in the parent process). */
export function takeSnapshot(): void {
	rmSync(SNAPSHOT_DIR, { recursive: true, force: true });
	cpSync(join(PACKAGE_DIR, 'package.json'), join(SNAPSHOT_DIR, 'package.json'));
	cpSync(join(PACKAGE_DIR, 'dist'), join(SNAPSHOT_DIR, 'dist'), { recursive: true });
}

/** The engine harness keeps the first package it loads: load the snapshot before any run. */
export async function useSnapshot(): Promise<void> {
	const loaded = await loadPackage(SNAPSHOT_DIR);
	if (Object.keys(loaded.nodeTypes).length === 0) throw new Error('No node in the snapshot');
}

/** An order-like item, about 300 bytes of JSON. */
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

/** An output item that is an error, or an answer that is not 2xx. */
export const failedItem = (json: IDataObject) =>
	json.error !== undefined || (typeof json.statusCode === 'number' && json.statusCode >= 300);

/** The body every side sends for an item: what Trigger Automation sends with All Input Fields. */
export function bodyFor(context: IDataObject): Buffer {
	return Buffer.from(JSON.stringify({ data: { message: MESSAGE, context } }), 'utf8');
}

function node(name: string, type: string, typeVersion: number, parameters: INodeParameters) {
	return { id: name, name, type, typeVersion, position: [0, 0], parameters } as INode;
}

/** A concurrency, or each side's defaults (no option set; the bare node at the node's cap). */
export type Load = number | 'defaults';

const batching = (load: Load) =>
	load === 'defaults' ? {} : { batching: { batch: { batchSize: load, batchInterval: 0 } } };

/** The engine sides; each ends in a node named LAST_NODE. */
export type EngineSide = 'node' | 'httpNode' | 'diy' | 'bare';

export function sideNodes(side: EngineSide, c: Load, url: string): INode[] {
	const http = `${BASE_PACKAGE}.httpRequest`;
	const credentials = { [CREDENTIAL_TYPE]: { id: 'c1', name: 'Automation webhook' } };
	const diyBody = `={{ JSON.stringify({ data: { message: ${JSON.stringify(MESSAGE)}, context: $json } }) }}`;
	switch (side) {
		case 'node':
			return [
				{
					...node(LAST_NODE, NODE_TYPE, 1, {
						message: MESSAGE,
						contextMode: 'allFields',
						options: batching(c),
					}),
					credentials,
				},
			];
		case 'httpNode':
			// n8n's HTTP Request node with our credential: it signs the JSON body n8n hands over.
			return [
				{
					...node(LAST_NODE, http, 4.2, {
						method: 'POST',
						url,
						authentication: 'predefinedCredentialType',
						nodeCredentialType: CREDENTIAL_TYPE,
						sendBody: true,
						contentType: 'json',
						specifyBody: 'json',
						jsonBody: `={{ { "data": { "message": ${JSON.stringify(MESSAGE)}, "context": $json } } }}`,
						options: batching(c),
					}),
					credentials,
				},
			];
		case 'diy':
			// Without the package: Edit Fields builds t and the body, Crypto signs, HTTP Request sends raw.
			return [
				node('Body', `${BASE_PACKAGE}.set`, 3.4, {
					mode: 'manual',
					assignments: {
						assignments: [
							{ id: 't', name: 't', type: 'number', value: '={{ Date.now() }}' },
							{ id: 'body', name: 'body', type: 'string', value: diyBody },
						],
					},
					options: {},
				}),
				{
					...node('Sign', `${BASE_PACKAGE}.crypto`, 2, {
						action: 'hmac',
						type: 'SHA256',
						value: '={{ $json.t }}.{{ $json.body }}',
						dataPropertyName: 'signature',
						encoding: 'hex',
					}),
					credentials: { crypto: { id: 'c2', name: 'HMAC secret' } },
				},
				node(LAST_NODE, http, 4.2, {
					method: 'POST',
					url,
					sendHeaders: true,
					headerParameters: {
						parameters: [
							{ name: 'X-Service-Signature', value: '=t={{ $json.t }},v1={{ $json.signature }}' },
						],
					},
					sendBody: true,
					contentType: 'raw',
					rawContentType: 'application/json',
					body: '={{ $json.body }}',
					options: batching(c),
				}),
			];
		case 'bare':
			return [
				node(LAST_NODE, BARE_HTTP_TYPE, 1, {
					url,
					secret: SECRET,
					message: MESSAGE,
					batchSize: c === 'defaults' ? MAX_IN_FLIGHT : c,
				}),
			];
	}
}

/** Start (items pinned) → the side's nodes, in a chain. */
export function sideWorkflow(
	side: EngineSide,
	items: IDataObject[],
	c: Load,
	receiverUrl: string,
	settings: Partial<INode> = {},
): RunOptions {
	const url = `${receiverUrl}${WEBHOOK_PATH}`;
	const sent = sideNodes(side, c, url);
	sent[sent.length - 1] = { ...sent[sent.length - 1], ...settings };
	const nodes = [manualTriggerNode('Start'), ...sent];
	const link = (to: INode) => ({ main: [[{ node: to.name, type: 'main', index: 0 }]] });
	const connections = Object.fromEntries(nodes.slice(1).map((to, i) => [nodes[i].name, link(to)]));
	return {
		workflow: { nodes, connections } as RunOptions['workflow'],
		pinData: { Start: pinnedItems(items) },
		credentials: {
			[CREDENTIAL_TYPE]: { webhookUrl: url, signingSecret: SECRET },
			crypto: { hmacSecret: SECRET },
		},
		extraNodeTypes: BARE_NODE_TYPES,
	};
}
