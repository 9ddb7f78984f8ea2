// @ts-check
/**
 * `npm start`: reads its flags before anything is built, so that --help and a flag error answer at
 * once instead of after the build (6 s on a quiet machine, 26 s on a busy one). The rules are
 * ./demoCli.js, plain JavaScript like this file (Node 20 runs no TypeScript). A --url is checked
 * with the credential's own URL rules, which are TypeScript: TypeScript's compiler turns them (and
 * whatever they import) into JavaScript under .dev-dist/start first, without a type check, in
 * about 2 s; dist/ is not touched. Only a command that passed builds and runs dev/demo.ts
 * (dev/launch.js).
 */
const { join } = require('node:path');

const { USAGE, UsageError, parseDemoArgs } = require('./demoCli');
const { TSC, buildAndRun, root, step } = require('./launch');

/** @param {string} url */
function checkWebhookUrl(url) {
	const source = join(root, 'credentials', 'common', 'webhookUrl.ts');
	const outDir = join(root, '.dev-dist', 'start');
	step(TSC, [
		...['--noCheck', '--skipLibCheck', '--types', 'node', '--lib', 'es2022'],
		...['--module', 'commonjs', '--target', 'es2022', '--rootDir', root, '--outDir', outDir],
		source,
	]);
	/** @type {typeof import('../credentials/common/webhookUrl')} */
	const rules = require(join(outDir, 'credentials', 'common', 'webhookUrl.js'));
	return rules.parseWebhookUrl(url);
}

const args = process.argv.slice(2);
try {
	if (parseDemoArgs(args, process.env, checkWebhookUrl).kind === 'help') {
		console.log(USAGE);
		process.exit(0);
	}
} catch (error) {
	if (!(error instanceof UsageError)) throw error;
	console.error(`${error.message}\n\n${USAGE}`);
	process.exit(2);
}

buildAndRun('demo', args);
