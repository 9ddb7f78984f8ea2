/**
 * `npm start`'s command line: strict flags (a mistyped or valueless flag is an error with the usage
 * text, never a silent offline run), and the one trigger `--url` sends to a real automation: the
 * message and context the user gave, shown before sending, never the examples' sample instructions.
 */
import { parseArgs } from 'node:util';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { manualTriggerNode } from './baseNodes';
import type { RunOptions } from './engine';
import { outputOf, runWorkflow } from './engine';
import { CREDENTIAL_TYPE } from './exampleFiles';
import {
	contextFromJson,
	messageText,
	serializeBody,
} from '../nodes/TriggerAutomation/requestBody';

export const USAGE = `Usage: npm start [-- <options>]

Without options: runs every example workflow through n8n's engine against the local simulator
(offline) and prints the runs it recorded.

  --serve                 Only start the simulator and keep it running (for the n8n editor).
  --port <n>              The simulator's port (default: a free one).
  --url <webhook URL>     Trigger a real automation once, with the signing secret taken from the
                          AUTOMATION_SIGNING_SECRET environment variable. Needs --message.
  --message <text>        The instruction for the automation's AI (data.message).
  --context <JSON>        Optional JSON object sent as data.context.
  -h, --help              This text.`;

export class UsageError extends Error {}

export type DemoCommand =
	| { kind: 'help' }
	| { kind: 'examples'; port: number }
	| { kind: 'serve'; port: number }
	| { kind: 'trigger'; url: string; message: string; context?: IDataObject };

export function parseDemoArgs(argv: string[]): DemoCommand {
	let values;
	try {
		({ values } = parseArgs({
			args: argv,
			strict: true,
			allowPositionals: false,
			options: {
				help: { type: 'boolean', short: 'h' },
				serve: { type: 'boolean' },
				port: { type: 'string' },
				url: { type: 'string' },
				message: { type: 'string' },
				context: { type: 'string' },
			},
		}));
	} catch (error) {
		throw new UsageError((error as Error).message);
	}
	if (values.help) return { kind: 'help' };
	if (values.url === undefined) {
		for (const flag of ['message', 'context'] as const) {
			if (values[flag] !== undefined) throw new UsageError(`--${flag} is only used with --url`);
		}
		const port = values.port === undefined ? 0 : Number(values.port);
		if (!Number.isInteger(port) || port < 0 || port > 65535) {
			throw new UsageError(`--port must be a port number, got ${JSON.stringify(values.port)}`);
		}
		return { kind: values.serve ? 'serve' : 'examples', port };
	}
	for (const flag of ['serve', 'port'] as const) {
		if (values[flag] !== undefined) throw new UsageError(`--${flag} is not used with --url`);
	}
	if (!/^https?:\/\//.test(values.url)) {
		throw new UsageError(
			`--url must be the automation's webhook URL, got ${JSON.stringify(values.url)}`,
		);
	}
	if (values.message === undefined) {
		throw new UsageError('--url sends one trigger: give its instruction with --message "<text>"');
	}
	try {
		const message = messageText(values.message);
		const context = values.context === undefined ? undefined : contextFromJson(values.context);
		return { kind: 'trigger', url: values.url, message, context };
	} catch (error) {
		throw new UsageError((error as Error).message);
	}
}

/** The exact body the node sends for this message and context (the node's own serializer). */
export function triggerBody(message: string, context: IDataObject | undefined): string {
	return serializeBody(message, context);
}

/** Manual Trigger → Trigger Automation with the message and context as typed: one item, one POST. */
function oneTriggerWorkflow(
	command: Extract<DemoCommand, { kind: 'trigger' }>,
	signingSecret: string,
): RunOptions {
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
					type: 'n8n-nodes-automation-service.triggerAutomation',
					typeVersion: 1,
					position: [200, 0],
					parameters,
					credentials: { [CREDENTIAL_TYPE]: { id: 'cli', name: 'From the command line' } },
				},
			],
			connections: { Start: { main: [[{ node: 'Trigger Automation', type: 'main', index: 0 }]] } },
		},
		credentials: { [CREDENTIAL_TYPE]: { webhookUrl: command.url, signingSecret } },
	};
}

/** Sends the one trigger through n8n's engine with the built node; the node's output item. */
export async function sendOneTrigger(
	command: Extract<DemoCommand, { kind: 'trigger' }>,
	signingSecret: string,
): Promise<{ ok: boolean; output: IDataObject; error?: string }> {
	const run = await runWorkflow(oneTriggerWorkflow(command, signingSecret));
	const [item] = outputOf(run, 'Trigger Automation');
	if (run.status !== 'success' || !item) {
		const error = run.data.resultData.error;
		const text = `${error?.message ?? run.status}${error?.description ? `\n${error.description}` : ''}`;
		return { ok: false, output: {}, error: text };
	}
	return { ok: true, output: item.json };
}
