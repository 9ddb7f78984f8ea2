// @ts-check
/**
 * `npm run dev`'s flags and the app it needs, in plain JavaScript: dev/dev.js checks them within a
 * second, before anything is built (Node 20 runs no TypeScript), and dev/n8nDev.ts and
 * dev/n8nApp.ts use the same rules.
 */
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const { UsageError, perSecondFlag, positiveNumber } = require('./demoCli');

/**
 * @typedef {object} DevOptions
 * @property {'n8n-2' | 'n8n-1'} appId
 * @property {number} port
 * @property {boolean} restoreExamples
 * @property {string | undefined} dir Where n8n's data and the pid file go (default: .dev-n8n).
 * @property {number | undefined} perSecond The simulator's rate limit.
 * @property {number | undefined} busySeconds The simulator's busy spell.
 */

/**
 * @param {string[]} argv
 * @returns {DevOptions} Throws a UsageError (./demoCli.js) for a value it cannot use.
 */
function devOptions(argv) {
	/** @param {string} name */
	const option = (name) => {
		const index = argv.indexOf(`--${name}`);
		return index === -1 ? undefined : argv[index + 1];
	};
	const port = Number(option('port') ?? '5678');
	if (!Number.isInteger(port) || port < 1 || port > 65534) {
		// The simulator takes the next port.
		throw new UsageError(`--port must be a port number below 65535, got ${option('port')}`);
	}
	return {
		appId: option('n8n') === '1' ? 'n8n-1' : 'n8n-2',
		port,
		// Off by default: a restart keeps what the user changed in the examples.
		restoreExamples: argv.includes('--restore-examples'),
		dir: option('dir'),
		perSecond: perSecondFlag(option('per-second')),
		busySeconds: positiveNumber('busy', option('busy')),
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

module.exports = { UsageError, devOptions, notInstalled };
