// @ts-check
/**
 * `npm start`'s command line: strict flags (a mistyped or valueless flag is an error with the usage
 * text, never a silent offline run) and every local check of a `--url` trigger (the webhook URL's
 * shape, the message, the context, the secret in AUTOMATION_SIGNING_SECRET), so that nothing is
 * built and nothing is sent until all of them passed; and the node's messages in the CLI user's
 * terms. Plain JavaScript, so that dev/start.js runs it before anything is built (Node 20 runs no
 * TypeScript); dev/demo.ts imports it as it is. The webhook URL's rules are the credential's own
 * (credentials/common/webhookUrl.ts), TypeScript: each caller passes them in, loaded as it can.
 */
const { parseArgs } = require('node:util');

const { quotaFlags } = require('./quotaHeaders');

const SECRET_VARIABLE = 'AUTOMATION_SIGNING_SECRET';

const USAGE = `Usage: npm start [-- <options>]

Without options: runs every example workflow through n8n's engine against the local simulator
(offline) and prints the runs it recorded.

  --serve                 Only start the simulator and keep it running (for the n8n editor).
  --port <n>              The simulator's port (default: a free one).
  --fixed-secret          With --serve: the signing secret npm run dev's simulator has, the same at
                          every start (default: a new one each start).
  --per-second <n>        With --serve: a rate limit; beyond n requests per second, 429.
  --busy <seconds>        With --serve: every request is a 429 for this long from the first one,
                          and again from the first after 10 s without any.
  --quota <n>/<seconds>   With --serve: a quota of n requests per window, told on every answer;
                          beyond it, 429 until the window ends.
  --quota-headers <form>  How the quota is told: draft (default), draft-07, ratelimit, x-ratelimit
                          (Reset as a time, as GitHub) or x-ratelimit-seconds.
  --url <webhook URL>     Trigger a real automation once, with the signing secret taken from the
                          ${SECRET_VARIABLE} environment variable. Needs --message.
  --message <text>        The instruction for the automation's AI (data.message).
  --context <JSON>        Optional JSON object sent as data.context.
  -h, --help              This text.`;

class UsageError extends Error {}

/**
 * @typedef {import('n8n-workflow').IDataObject} IDataObject
 *
 * @typedef {object} TriggerCommand
 * @property {'trigger'} kind
 * @property {string} url
 * @property {string} message
 * @property {IDataObject} [context]
 * @property {string} signingSecret From the environment, never from a flag: a flag would show in
 *   the process list.
 *
 * @typedef {object} ServeCommand
 * @property {'serve'} kind
 * @property {number} port
 * @property {boolean} fixedSecret
 * @property {number} [perSecond]
 * @property {number} [busySeconds]
 * @property {import('./quotaHeaders').QuotaSpec} [quota]
 *
 * @typedef {{ kind: 'help' }
 *   | { kind: 'examples'; port: number }
 *   | ServeCommand
 *   | TriggerCommand} DemoCommand
 *
 * @typedef {(url: string) => unknown} WebhookUrlRule The credential's parseWebhookUrl: throws,
 *   saying what to change, when the text is not a webhook URL.
 */

/**
 * @param {string} text
 * @returns {IDataObject}
 */
function contextFrom(text) {
	/** @type {unknown} */
	let parsed;
	try {
		parsed = JSON.parse(text);
	} catch (error) {
		throw new UsageError(`--context is not valid JSON: ${/** @type {Error} */ (error).message}`);
	}
	// JSON.parse makes no objects but plain ones: what is not an array or a primitive is one.
	if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
		throw new UsageError(`--context must be a JSON object, in braces: such as '{"orderId": 42}'`);
	}
	return /** @type {IDataObject} */ (parsed);
}

/**
 * The secret as the user set it, or why it cannot sign; never echoes the value.
 * @param {NodeJS.ProcessEnv} env
 * @returns {string}
 */
function signingSecretFrom(env) {
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

/**
 * A flag's value as a number above 0, or undefined when the flag is not given.
 * @param {string} flag
 * @param {string | undefined} text
 * @returns {number | undefined}
 */
function positiveNumber(flag, text) {
	if (text === undefined) return undefined;
	const value = Number(text);
	if (text.trim() === '' || !Number.isFinite(value) || value <= 0) {
		throw new UsageError(`--${flag} must be a number above 0, got ${JSON.stringify(text)}`);
	}
	return value;
}

/**
 * `--per-second`: a whole number of requests above 0, or undefined when the flag is not given.
 * @param {string | undefined} text
 * @returns {number | undefined}
 */
function perSecondFlag(text) {
	const perSecond = positiveNumber('per-second', text);
	if (perSecond !== undefined && !Number.isInteger(perSecond)) {
		throw new UsageError(`--per-second must be a whole number of requests, got ${perSecond}`);
	}
	return perSecond;
}

/**
 * `--quota` and `--quota-headers` (dev/quotaHeaders.js): the quota, or undefined when not given.
 * @param {string | undefined} quota
 * @param {string | undefined} form
 * @returns {import('./quotaHeaders').QuotaSpec | undefined}
 */
function quotaFlag(quota, form) {
	const spec = quotaFlags(quota, form);
	if (spec !== undefined && 'problem' in spec) throw new UsageError(spec.problem);
	return spec;
}

/**
 * @param {string[]} argv
 * @param {NodeJS.ProcessEnv} env
 * @param {WebhookUrlRule} checkWebhookUrl Called only when --url is given.
 * @returns {DemoCommand}
 */
function parseDemoArgs(argv, env, checkWebhookUrl) {
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
				'fixed-secret': { type: 'boolean' },
				'per-second': { type: 'string' },
				busy: { type: 'string' },
				quota: { type: 'string' },
				'quota-headers': { type: 'string' },
				url: { type: 'string' },
				message: { type: 'string' },
				context: { type: 'string' },
			},
		}));
	} catch (error) {
		throw new UsageError(/** @type {Error} */ (error).message);
	}
	if (values.help) return { kind: 'help' };
	if (values.url === undefined) {
		for (const flag of /** @type {const} */ (['message', 'context'])) {
			if (values[flag] !== undefined) throw new UsageError(`--${flag} is only used with --url`);
		}
		const port = values.port === undefined ? 0 : Number(values.port);
		if (!Number.isInteger(port) || port < 0 || port > 65535) {
			throw new UsageError(`--port must be a port number, got ${JSON.stringify(values.port)}`);
		}
		if (!values.serve) {
			for (const flag of /** @type {const} */ ([
				'fixed-secret',
				'per-second',
				'busy',
				'quota',
				'quota-headers',
			])) {
				if (values[flag] !== undefined) throw new UsageError(`--${flag} is only used with --serve`);
			}
			return { kind: 'examples', port };
		}
		const perSecond = perSecondFlag(values['per-second']);
		const busySeconds = positiveNumber('busy', values.busy);
		const quota = quotaFlag(values.quota, values['quota-headers']);
		return {
			kind: 'serve',
			port,
			fixedSecret: values['fixed-secret'] === true,
			...(perSecond === undefined ? {} : { perSecond }),
			...(busySeconds === undefined ? {} : { busySeconds }),
			...(quota === undefined ? {} : { quota }),
		};
	}
	for (const flag of /** @type {const} */ ([
		'serve',
		'port',
		'fixed-secret',
		'per-second',
		'busy',
		'quota',
		'quota-headers',
	])) {
		if (values[flag] !== undefined) throw new UsageError(`--${flag} is not used with --url`);
	}
	try {
		checkWebhookUrl(values.url);
	} catch (error) {
		throw new UsageError(`--url: ${/** @type {Error} */ (error).message}`);
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
/** @type {Array<[RegExp, string]>} */
const CLI_TERMS = [
	[/copy the new one from its Webhook details into the credential/g, 'give the new one with --url'],
	[/the credential's webhook URL/g, 'the URL given with --url'],
	[/the credential's signing secret/g, SECRET_VARIABLE],
	[/into the credential/g, `into ${SECRET_VARIABLE}`],
	[/the machine running n8n/g, 'this machine'],
	[/this item's data/g, 'the --message and --context given'],
];

/**
 * A message of the node, in the terms of what the CLI user set.
 * @param {string} text
 * @returns {string}
 */
function inCliTerms(text) {
	return CLI_TERMS.reduce(
		(result, [phrase, replacement]) => result.replace(phrase, replacement),
		text,
	);
}

module.exports = {
	SECRET_VARIABLE,
	USAGE,
	UsageError,
	parseDemoArgs,
	positiveNumber,
	perSecondFlag,
	quotaFlag,
	inCliTerms,
};
