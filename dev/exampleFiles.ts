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

/**
 * The id each example gets where it is imported by n8n's CLI (npm run dev, the end-to-end suite),
 * readable in the editor's address bar. (Import from File in the editor gives a workflow its own.)
 */
export const EXAMPLE_IDS: Readonly<Record<string, string>> = {
	'ai-agent-tool.json': 'exampleAgentTool',
	'daily-report-schedule.json': 'exampleScheduled',
	'mcp-server-tool.json': 'exampleMcpServer',
	'order-to-automation.json': 'exampleOrderFlow',
	'route-failures-by-code.json': 'exampleFailRoute',
};

const ID_CHARACTERS = 16;

/**
 * A workflow id n8n accepts for a workflow it did not make itself: 16 letters and digits. An
 * example file has its own (EXAMPLE_IDS); any other label of up to 16 letters and digits is padded
 * with zeros, so it stays readable (never cut short).
 */
export function workflowId(label: string): string {
	if (Object.hasOwn(EXAMPLE_IDS, label)) return EXAMPLE_IDS[label];
	if (label.endsWith('.json')) {
		throw new Error(
			`examples/${label} has no workflow id: add one to EXAMPLE_IDS (dev/exampleFiles.ts)`,
		);
	}
	if (!new RegExp(`^[A-Za-z0-9]{1,${ID_CHARACTERS}}$`).test(label)) {
		throw new Error(`A workflow id label is 1 to ${ID_CHARACTERS} letters and digits: "${label}"`);
	}
	return label.padEnd(ID_CHARACTERS, '0');
}
