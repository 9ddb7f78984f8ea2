/* eslint-disable -- dev and test code, never shipped ("files": ["dist"]): n8n's node rules cover nodes/ and credentials/. */
/**
 * What the end-to-end suite imports into a real n8n: the example workflows as they are, their
 * credentials pointed at the local simulator, and a few workflows of n8n's own nodes that only the
 * suite needs (several items with one bad, a credential whose secret is wrong).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { PACKAGE_DIR } from '../../dev/packageDir';

export const NODE_TYPE = 'n8n-nodes-automation-service.triggerAutomation';
export const CREDENTIAL_TYPE = 'serviceWebhookSecretApi';

export interface WorkflowFile {
	id?: string;
	name: string;
	nodes: Array<{
		name: string;
		type: string;
		credentials?: Record<string, { id: string; name: string }>;
		[key: string]: unknown;
	}>;
	connections: Record<string, unknown>;
	[key: string]: unknown;
}

export interface Example {
	file: string;
	workflow: WorkflowFile;
}

export function loadExamples(): Example[] {
	const dir = join(PACKAGE_DIR, 'examples');
	return readdirSync(dir)
		.filter((file) => file.endsWith('.json'))
		.sort()
		.map((file) => ({
			file,
			workflow: JSON.parse(readFileSync(join(dir, file), 'utf8')) as WorkflowFile,
		}));
}

/** The credentials a workflow's nodes name, as n8n's import:credentials takes them. */
export function credentialsOf(
	workflow: WorkflowFile,
	data: { webhookUrl: string; signingSecret: string },
): object[] {
	return workflow.nodes.flatMap((node) =>
		Object.entries(node.credentials ?? {})
			.filter(([type]) => type === CREDENTIAL_TYPE)
			.map(([type, { id, name }]) => ({ id, name, type, data })),
	);
}

/** n8n wants 16 alphanumeric characters for ids it did not make itself. */
export function workflowId(label: string): string {
	return `${label.replace(/[^A-Za-z0-9]/g, '')}0000000000000000`.slice(0, 16);
}

const manualTrigger = {
	id: 'e2e-manual',
	name: 'Manual Trigger',
	type: 'n8n-nodes-base.manualTrigger',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

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
			{
				id: 'e2e-split',
				name: 'One item each',
				type: 'n8n-nodes-base.splitOut',
				typeVersion: 1,
				position: [400, 0],
				parameters: { fieldToSplitOut: 'items', options: {} },
			},
			{
				id: 'e2e-trigger',
				name: 'Trigger Automation',
				type: NODE_TYPE,
				typeVersion: 1,
				position: [600, 0],
				parameters: {
					message: '={{ $json.message }}',
					contextMode: 'json',
					contextJson: '={{ JSON.stringify({ position: $json.position }) }}',
					options: {},
				},
				credentials: { [CREDENTIAL_TYPE]: spec.credential },
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
