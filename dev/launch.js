// @ts-check
/**
 * What `npm start` (dev/start.js) and `npm run dev` (dev/dev.js) do once their own checks passed:
 * build the package (dev/build.sh) and the dev code (tsc) and run the built script. Plain
 * JavaScript because it runs before any build, on Node 20 too, which cannot run TypeScript.
 */
const { spawn, spawnSync } = require('node:child_process');
const { join } = require('node:path');

const root = join(__dirname, '..');
const TSC = join(root, 'node_modules', '.bin', 'tsc');

/**
 * Runs a build step; a failed one ends the command with its status.
 * @param {string} command
 * @param {string[]} args
 */
function step(command, args) {
	const { status } = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
	if (status !== 0) process.exit(status ?? 1);
}

/**
 * Builds the package and the dev code, then runs .dev-dist/dev/<script>.js with `args` and exits
 * with its code.
 * @param {string} script
 * @param {string[]} args
 */
function buildAndRun(script, args) {
	step('bash', [join(root, 'dev', 'build.sh')]);
	step(TSC, ['-p', join(root, 'tsconfig.dev.json')]);
	const child = spawn(process.execPath, [join(root, '.dev-dist', 'dev', `${script}.js`), ...args], {
		cwd: root,
		stdio: 'inherit',
	});
	// Ctrl+C reaches the script too (same process group); this one waits for it to end.
	for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
		process.on(signal, () => child.kill(signal));
	}
	child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

module.exports = { root, TSC, step, buildAndRun };
