/**
 * The workflow files in examples/ as they are, and what importing them into a real n8n needs: their
 * credentials (pointed wherever the caller says) and ids n8n accepts. No n8n module is loaded here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { CREDENTIAL_TYPE } from '../credentials/common/credentialType';
import { PACKAGE_DIR } from './packageDir';

export { CREDENTIAL_TYPE };

/** What an agent might pass to the tool, per $fromAI key (offline rehearsal, scripted chat model). */
export const FROM_AI_SAMPLES: Record<string, unknown> = {
	message:
		'Restock tea TEA-01 for the Oslo shop and confirm the delivery date to the shop manager.',
	context: { sku: 'TEA-01', quantity: 40, shop: 'Oslo', requestedBy: 'chat' },
};

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

export interface ExampleFile {
	file: string;
	workflow: WorkflowFile;
}

export const EXAMPLES_DIR = join(PACKAGE_DIR, 'examples');

/** The workflow files in examples/, by file name. */
export function readExamples(): ExampleFile[] {
	return readdirSync(EXAMPLES_DIR)
		.filter((file) => file.endsWith('.json'))
		.sort()
		.map((file) => ({
			file,
			workflow: JSON.parse(readFileSync(join(EXAMPLES_DIR, file), 'utf8')) as WorkflowFile,
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
