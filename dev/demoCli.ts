/**
 * `npm start`'s command line: strict flags (a mistyped or valueless flag is an error with the usage
 * text, never a silent offline run) and every local check of a `--url` trigger (the webhook URL's
 * shape, the message, the context, the secret in AUTOMATION_SIGNING_SECRET), so that nothing is
 * built and nothing is sent until all of them passed. dev/start.js runs this module straight from
 * source before the build, so it imports nothing that needs one: only node:util and the webhook URL
 * rules the credential itself applies (no n8n module).
 */
import { parseArgs } from 'node:util';

import type { IDataObject } from 'n8n-workflow';

import { isPlainObject } from '../credentials/common/plainObject';
import { parseWebhookUrl } from '../credentials/common/webhookUrl';

export const SECRET_VARIABLE = 'AUTOMATION_SIGNING_SECRET';

export const USAGE = `Usage: npm start [-- <options>]

Without options: runs every example workflow through n8n's engine against the local simulator
(offline) and prints the runs it recorded.

  --serve                 Only start the simulator and keep it running (for the n8n editor).
  --port <n>              The simulator's port (default: a free one).
  --url <webhook URL>     Trigger a real automation once, with the signing secret taken from the
                          ${SECRET_VARIABLE} environment variable. Needs --message.
  --message <text>        The instruction for the automation's AI (data.message).
  --context <JSON>        Optional JSON object sent as data.context.
  -h, --help              This text.`;

export class UsageError extends Error {}

export interface TriggerCommand {
	kind: 'trigger';
	url: string;
	message: string;
	context?: IDataObject;
	/** From the environment, never from a flag: a flag would show in the process list. */
	signingSecret: string;
}

export type DemoCommand =
	| { kind: 'help' }
	| { kind: 'examples'; port: number }
	| { kind: 'serve'; port: number }
	| TriggerCommand;

function kindOf(value: unknown): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'an array';
	return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function contextFrom(text: string): IDataObject {
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch (error) {
		throw new UsageError(`--context is not valid JSON: ${(error as Error).message}`);
	}
	if (!isPlainObject(parsed)) {
		throw new UsageError(
			`--context must be a JSON object such as '{"orderId": 42}', but it is ${kindOf(parsed)}`,
		);
	}
	return parsed;
}

/** The secret as the user set it, or why it cannot sign; never echoes the value. */
function signingSecretFrom(env: NodeJS.ProcessEnv): string {
	const secret = env[SECRET_VARIABLE];
	if (secret === undefined || secret === '') {
		throw new UsageError(
			`Set ${SECRET_VARIABLE} to the automation's signing secret (from its Webhook details), ` +
				`e.g. ${SECRET_VARIABLE}='<signing secret>' npm start -- --url …`,
		);
	}
	if (secret.trim() !== secret) {
		throw new UsageError(
			`${SECRET_VARIABLE} starts or ends with whitespace (usually a copy-paste slip): set it ` +
				'again without the surrounding spaces or line breaks.',
		);
	}
	return secret;
}

export function parseDemoArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): DemoCommand {
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
	try {
		parseWebhookUrl(values.url);
	} catch (error) {
		throw new UsageError(`--url: ${(error as Error).message}`);
	}
	if (values.message === undefined) {
		throw new UsageError('--url sends one trigger: give its instruction with --message "<text>"');
	}
	if (values.message.trim() === '') {
		throw new UsageError("--message is empty: give the instruction for the automation's AI");
	}
	const context = values.context === undefined ? undefined : contextFrom(values.context);
	return {
		kind: 'trigger',
		url: values.url,
		message: values.message,
		...(context === undefined ? {} : { context }),
		signingSecret: signingSecretFrom(env),
	};
}

// The node's messages speak to someone who set up a credential in n8n; the CLI user set a flag and
// an environment variable, and runs no n8n.
const CLI_TERMS: Array<[RegExp, string]> = [
	[/copy the new one from its Webhook details into the credential/g, 'give the new one with --url'],
	[/the credential's webhook URL/g, 'the URL given with --url'],
	[/the credential's signing secret/g, SECRET_VARIABLE],
	[/into the credential/g, `into ${SECRET_VARIABLE}`],
	[/the machine running n8n/g, 'this machine'],
	[/this item's data/g, 'the --message and --context given'],
];

/** A message of the node, in the terms of what the CLI user set. */
export function inCliTerms(text: string): string {
	return CLI_TERMS.reduce(
		(result, [phrase, replacement]) => result.replace(phrase, replacement),
		text,
	);
}
