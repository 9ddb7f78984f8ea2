// @ts-check
/**
 * `npm start`: reads its flags before anything is built, so that --help and a flag error answer at
 * once instead of after the build (6 s on a quiet machine, 26 s on a busy one). The rules are
 * ./demoCli.js, plain JavaScript like this file (Node 20 runs no TypeScript). A --url is checked
 * with the credential's own URL rules, which are TypeScript: TypeScript's compiler turns them (and
 * whatever they import) into JavaScript under .dev-dist/start first, without a type check, in
 * about 2 s; dist/ is not touched. Only a command that passed builds the package (dev/build.sh)
 * and the dev code (tsc) and runs it: dev/demo.ts.
 */
const { spawn, spawnSync } = require('node:child_process');
const { join } = require('node:path');

const { USAGE, UsageError, parseDemoArgs } = require('./demoCli');

const root = join(__dirname, '..');
const tsc = join(root, 'node_modules', '.bin', 'tsc');

/**
 * Runs a build step; a failed one ends `npm start` with its status.
 * @param {string} command
 * @param {string[]} args
 */
function step(command, args) {
	const { status } = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
	if (status !== 0) process.exit(status ?? 1);
}

/** @param {string} url */
function checkWebhookUrl(url) {
	const source = join(root, 'credentials', 'common', 'webhookUrl.ts');
	const outDir = join(root, '.dev-dist', 'start');
	step(tsc, [
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

step('bash', [join(root, 'dev', 'build.sh')]);
step(tsc, ['-p', join(root, 'tsconfig.dev.json')]);

const demo = spawn(process.execPath, [join(root, '.dev-dist', 'dev', 'demo.js'), ...args], {
	cwd: root,
	stdio: 'inherit',
});
// Ctrl+C reaches the demo too (same process group); this one waits for it to end.
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
	process.on(signal, () => demo.kill(signal));
}
demo.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
