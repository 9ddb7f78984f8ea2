// @ts-check
/**
 * What `npm start` (dev/start.js) and `npm run dev` (dev/dev.js) do around their own checks: load
 * dev modules straight from source before anything is built, then build the package (dev/build.sh)
 * and the dev code (tsc) and run the built script. Plain JavaScript because it runs before any
 * build, on Node 20 too, which cannot run TypeScript.
 */
const { spawn, spawnSync } = require('node:child_process');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');

/**
 * Lets require() load dev/*.ts from source: TypeScript's transpiler strips the types file by file
 * (no type check: `npm run typecheck` does that). Only for modules that import no n8n module.
 */
function requireFromSource() {
	const ts = require('typescript');
	/**
	 * @param {NodeJS.Module} module
	 * @param {string} filename
	 */
	require.extensions['.ts'] = (module, filename) => {
		const { outputText } = ts.transpileModule(readFileSync(filename, 'utf8'), {
			fileName: filename,
			compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
		});
		/** @type {{ _compile(code: string, filename: string): void }} */ (
			/** @type {unknown} */ (module)
		)._compile(outputText, filename);
	};
}

/**
 * Builds the package and the dev code, then runs .dev-dist/dev/<script>.js with `args` and exits
 * with its code.
 * @param {string} script
 * @param {string[]} args
 */
function buildAndRun(script, args) {
	for (const [command, ...commandArgs] of [
		['bash', join(root, 'dev', 'build.sh')],
		[join(root, 'node_modules', '.bin', 'tsc'), '-p', join(root, 'tsconfig.dev.json')],
	]) {
		const { status } = spawnSync(command, commandArgs, { cwd: root, stdio: 'inherit' });
		if (status !== 0) process.exit(status ?? 1);
	}
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

module.exports = { root, requireFromSource, buildAndRun };
