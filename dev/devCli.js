// @ts-check
/**
 * `npm run dev`'s flags and the app it needs, in plain JavaScript: dev/dev.js checks them within a
 * second, before anything is built (Node 20 runs no TypeScript), and dev/n8nDev.ts and
 * dev/n8nApp.ts use the same rules.
 */
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const { parseArgs } = require('node:util');

const { UsageError, perSecondFlag, positiveNumber, quotaFlag } = require('./demoCli');

const USAGE = `Usage: npm run dev [-- <options>]

Builds the package and starts the pinned n8n with it, the example workflows and a local simulator
of the service; the terminal then shows each run the simulator creates and each request it refuses.
Run it again after a change: it rebuilds and restarts n8n with the same data.

  --n8n <1|2>             n8n 2.x on Node 24 (2, the default) or n8n 1.x on Node 20 (1).
  --port <n>              The editor's port (default: 5678); the simulator takes the next one.
  --restore-examples      Import the examples and their credentials again, overwriting your edits.
  --dir <folder>          Where n8n's data and the pid file go (default: .dev-n8n).
  --busy <seconds>        The simulator answers every request 429 for this long from the first one,
                          and again from the first after 10 s without any (its terminal tells).
  --per-second <n>        The simulator's rate limit: beyond n requests per second, 429.
  --quota <n>/<seconds>   The simulator keeps a quota of n requests per window and tells it on
                          every answer; beyond it, 429 until the window ends.
  --quota-headers <form>  How it tells the quota: draft (default), draft-07, ratelimit, x-ratelimit
                          (Reset as a time, as GitHub) or x-ratelimit-seconds.
  -h, --help              This text.

Examples:
  npm run dev                                  n8n 2.x, editor on http://127.0.0.1:5678
  npm run dev -- --n8n 1                       n8n 1.x
  npm run dev -- --port 5700                   another editor port
  npm run dev -- --restore-examples            the examples as in examples/ again
  npm run dev -- --busy 20 --per-second 5      the simulator busy, then rate-limited
  npm run dev -- --quota 20/30                 a quota of 20 requests per 30 s, told in headers
  npm run dev -- --dir /tmp/dev2 --port 5700   a second instance, its data elsewhere`;

/**
 * @typedef {object} DevOptions
 * @property {boolean} help
 * @property {'n8n-2' | 'n8n-1'} appId
 * @property {number} port
 * @property {boolean} restoreExamples
 * @property {string | undefined} dir Where n8n's data and the pid file go (default: .dev-n8n).
 * @property {number | undefined} perSecond The simulator's rate limit.
 * @property {number | undefined} busySeconds The simulator's busy spell.
 * @property {import('./quotaHeaders').QuotaSpec | undefined} quota The simulator's quota.
 */

/** Every flag, in node:util's parseArgs's terms; USAGE has a line for each. */
const FLAGS = /** @type {const} */ ({
	help: { type: 'boolean', short: 'h' },
	n8n: { type: 'string' },
	port: { type: 'string' },
	'restore-examples': { type: 'boolean' },
	dir: { type: 'string' },
	busy: { type: 'string' },
	'per-second': { type: 'string' },
	quota: { type: 'string' },
	'quota-headers': { type: 'string' },
});

/**
 * node:util's parseArgs, strict: a mistyped or valueless flag is an error, never ignored (a run
 * without the flag the user meant would look like its effect).
 * @param {string[]} argv
 */
function parse(argv) {
	try {
		return parseArgs({
			args: argv,
			strict: true,
			allowPositionals: false,
			options: FLAGS,
		}).values;
	} catch (error) {
		const { message } = /** @type {Error} */ (error);
		// parseArgs's advice for these (a positional after '--') does not apply: dev takes none.
		const unknown = /^Unknown option '([^']+)'/.exec(message);
		if (unknown) throw new UsageError(`unknown flag ${unknown[1]}`);
		const positional = /^Unexpected argument '([^']*)'/.exec(message);
		if (positional)
			throw new UsageError(`unexpected argument ${positional[1]}: dev takes flags only`);
		throw new UsageError(message);
	}
}

/**
 * @param {string[]} argv
 * @returns {DevOptions} Throws a UsageError (./demoCli.js) for a flag or value it cannot use.
 */
function devOptions(argv) {
	const values = parse(argv);
	const port = Number(values.port ?? '5678');
	if (!Number.isInteger(port) || port < 1 || port > 65534) {
		// The simulator takes the next port.
		throw new UsageError(`--port must be a port number below 65535, got ${values.port}`);
	}
	if (values.n8n !== undefined && !['1', '2'].includes(values.n8n)) {
		throw new UsageError(`--n8n must be 1 or 2, got ${JSON.stringify(values.n8n)}`);
	}
	return {
		help: values.help === true,
		appId: values.n8n === '1' ? 'n8n-1' : 'n8n-2',
		port,
		// Off by default: a restart keeps what the user changed in the examples.
		restoreExamples: values['restore-examples'] === true,
		dir: values.dir,
		perSecond: perSecondFlag(values['per-second']),
		busySeconds: positiveNumber('busy', values.busy),
		quota: quotaFlag(values.quota, values['quota-headers']),
	};
}

/**
 * What to run when the app in <appsDir>/<appId> (e2e/.apps) is not installed yet; undefined once it
 * is. The folder is the caller's: this file also runs compiled, from .dev-dist.
 * @param {string} appsDir
 * @param {string} appId
 */
function notInstalled(appsDir, appId) {
	if (existsSync(join(appsDir, appId, 'node_modules', 'n8n', 'package.json'))) return undefined;
	return `n8n is not installed in e2e/.apps/${appId}: run bash e2e/install.sh ${appId} once (a few minutes; about 2 GB on disk; it builds sqlite3 with python3, make and g++)`;
}

module.exports = { FLAGS, USAGE, UsageError, devOptions, notInstalled };
