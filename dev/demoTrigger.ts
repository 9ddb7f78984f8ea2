/**
 * The one trigger `npm start -- --url` sends to a real automation: the message and context the
 * user gave (checked by ./demoCli.js), through n8n's engine with the built node, shown before
 * sending; never the examples' sample instructions.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { manualTriggerNode } from './baseNodes';
import type { TriggerCommand } from './demoCli';
import { inCliTerms } from './demoCli';
import type { RunOptions } from './engine';
import { outputOf, runWorkflow } from './engine';
import { CREDENTIAL_TYPE } from './exampleFiles';
import { NODE_TYPE } from './packageNames';
import { serializeBody } from '../nodes/TriggerAutomation/request/requestBody';

/** The exact body the node sends for this message and context (the node's own serializer). */
export function triggerBody(command: TriggerCommand): string {
	return serializeBody(command.message, command.context);
}

/** Manual Trigger → Trigger Automation with the message and context as typed: one item, one POST. */
function oneTriggerWorkflow(command: TriggerCommand): RunOptions {
	const parameters: INodeParameters = { message: command.message, options: {} };
	if (command.context !== undefined) {
		parameters.contextMode = 'json';
		parameters.contextJson = JSON.stringify(command.context);
	}
	return {
		workflow: {
			nodes: [
				manualTriggerNode('Start'),
				{
					id: 'trigger',
					name: 'Trigger Automation',
					type: NODE_TYPE,
					typeVersion: 1,
					position: [200, 0],
					parameters,
					credentials: { [CREDENTIAL_TYPE]: { id: 'cli', name: 'From the command line' } },
				},
			],
			connections: { Start: { main: [[{ node: 'Trigger Automation', type: 'main', index: 0 }]] } },
		},
		credentials: {
			[CREDENTIAL_TYPE]: { webhookUrl: command.url, signingSecret: command.signingSecret },
		},
	};
}

/**
 * Sends the one trigger through n8n's engine with the built node: the node's output item, or its
 * error in the terms of what the CLI user set (the flags, the environment variable).
 */
export async function sendOneTrigger(
	command: TriggerCommand,
): Promise<{ ok: boolean; output: IDataObject; error?: string }> {
	const run = await runWorkflow(oneTriggerWorkflow(command));
	const [item] = outputOf(run, 'Trigger Automation');
	if (run.status !== 'success' || !item) {
		const error = run.data.resultData.error;
		const text = `${error?.message ?? run.status}${error?.description ? `\n${error.description}` : ''}`;
		return { ok: false, output: {}, error: inCliTerms(text) };
	}
	return { ok: true, output: item.json };
}
