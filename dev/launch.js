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
	// A signal to npm or to this process alone (kill) is passed on; this one waits for the script
	// to end. Ctrl+C (and a closed terminal) signals the whole process group, so the script gets
	// that one twice or three times (npm passes it on too): it must take a repeat as the same request.
	for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
		process.on(signal, () => child.kill(signal));
	}
	// `kill <npm's pid>`: npm passes SIGTERM to the shell it ran this in, which dies of it without
	// passing it on, and leaves this process to init. The script is stopped then too.
	const parent = process.ppid;
	const orphaned = setInterval(() => {
		if (process.ppid !== parent) child.kill('SIGTERM');
	}, 500);
	orphaned.unref();
	child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

module.exports = { root, TSC, step, buildAndRun };
