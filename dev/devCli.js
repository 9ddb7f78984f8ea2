// @ts-check
/**
 * `npm run dev`'s flags and the app it needs, in plain JavaScript: dev/dev.js checks them within a
 * second, before anything is built (Node 20 runs no TypeScript), and dev/n8nDev.ts and
 * dev/n8nApp.ts use the same rules.
 */
const { existsSync } = require('node:fs');
const { join } = require('node:path');

/**
 * @param {string[]} argv
 * @returns {{ appId: 'n8n-2' | 'n8n-1', port: number, restoreExamples: boolean }}
 */
function devOptions(argv) {
	/** @param {string} name @param {string} fallback */
	const option = (name, fallback) => {
		const index = argv.indexOf(`--${name}`);
		return index === -1 ? fallback : (argv[index + 1] ?? fallback);
	};
	return {
		appId: option('n8n', '2') === '1' ? 'n8n-1' : 'n8n-2',
		port: Number(option('port', '5678')),
		// Off by default: a restart keeps what the user changed in the examples.
		restoreExamples: argv.includes('--restore-examples'),
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

module.exports = { devOptions, notInstalled };
