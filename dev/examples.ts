/**
 * The importable workflows in examples/, made runnable in the engine harness: the credential points
 * at a given webhook URL and secret; n8n's own nodes in them (Manual Trigger, Schedule Trigger, Edit
 * Fields) are the real ones from n8n-nodes-base. A workflow whose tool is called by a chat model
 * (AI Agent) or by an MCP client (MCP Server Trigger) cannot run offline, without either; for it
 * the tool node is rehearsed alone, started by a Manual Trigger, with the values the agent or
 * client would give through $fromAI(). The end-to-end suite runs both whole in the real n8n.
 */
import type { INode, INodeParameters, NodeParameterValueType } from 'n8n-workflow';

import { BASE_NODE_NAMES, BASE_PACKAGE, manualTriggerNode } from './baseNodes';
import type { RunOptions, WorkflowDefinition } from './engine';
import { CREDENTIAL_TYPE, FROM_AI_SAMPLES, readExamples } from './exampleFiles';
import { NODE_TYPE, TOOL_TYPE } from './packageNames';

export interface Example extends WorkflowDefinition {
	file: string;
	name: string;
}

export function loadExamples(): Example[] {
	return readExamples().map(({ file, workflow }) => ({
		file,
		name: workflow.name,
		nodes: workflow.nodes as unknown as INode[],
		connections: workflow.connections as Example['connections'],
	}));
}

export { FROM_AI_SAMPLES };

const FROM_AI_CALL = /^=\{\{\s*\$fromAI\(\s*'([^']+)'[^}]*\)\s*\}\}$/;

function withAgentValues(parameters: INodeParameters): INodeParameters {
	const result: INodeParameters = {};
	for (const [name, value] of Object.entries(parameters)) {
		const match = typeof value === 'string' ? FROM_AI_CALL.exec(value) : null;
		if (match && match[1] in FROM_AI_SAMPLES) {
			const sample = FROM_AI_SAMPLES[match[1]];
			result[name] = (
				typeof sample === 'string' ? sample : JSON.stringify(sample)
			) as NodeParameterValueType;
		} else if (name !== 'descriptionType' && name !== 'toolDescription') {
			result[name] = value;
		}
	}
	return result;
}

const BASE_TYPES = new Set<string>(BASE_NODE_NAMES.map((name) => `${BASE_PACKAGE}.${name}`));

function isRunnable(node: INode): boolean {
	return node.type === NODE_TYPE || BASE_TYPES.has(node.type);
}

export interface PreparedExample {
	example: Example;
	/** 'workflow': the whole file runs; 'tool rehearsal': only its tool node, fed by the agent's values. */
	mode: 'workflow' | 'tool rehearsal';
	options: RunOptions;
	/** Name of the Trigger Automation node in `options.workflow`. */
	nodeName: string;
}

/** The example ready for the engine, with its credential pointing at the given automation. */
export function prepareExample(
	example: Example,
	credential: { webhookUrl: string; signingSecret: string },
): PreparedExample {
	const credentials = { [CREDENTIAL_TYPE]: credential };
	if (example.nodes.every(isRunnable)) {
		const trigger = example.nodes.find((node) => node.type === NODE_TYPE);
		if (!trigger) throw new Error(`${example.file} has no Trigger Automation node`);
		const start = example.nodes.find((node) => node.type.endsWith('Trigger'));
		return {
			example,
			mode: 'workflow',
			nodeName: trigger.name,
			options: {
				workflow: { nodes: example.nodes, connections: example.connections },
				credentials,
				startNode: start?.name,
			},
		};
	}
	const tool = example.nodes.find((node) => node.type === TOOL_TYPE);
	if (!tool)
		throw new Error(`${example.file} can neither run offline nor has a Trigger Automation tool`);
	const node: INode = {
		...tool,
		type: NODE_TYPE,
		parameters: withAgentValues(tool.parameters),
	};
	return {
		example,
		mode: 'tool rehearsal',
		nodeName: node.name,
		options: {
			workflow: {
				nodes: [manualTriggerNode('Agent call', 'agent'), node],
				connections: { 'Agent call': { main: [[{ node: node.name, type: 'main', index: 0 }]] } },
			},
			credentials,
		},
	};
}
