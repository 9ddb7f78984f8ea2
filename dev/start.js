// @ts-check
/**
 * `npm start`: reads its flags before anything is built, so that --help and a flag error answer in
 * a second instead of after the build (6 s on a quiet machine, 26 s on a busy one). The rules are
 * dev/demoCli.ts, run here from source: TypeScript's transpiler strips its types file by file (no
 * type check: `npm run typecheck` does that); it imports no n8n module. Only a command that passed
 * builds the package (dev/build.sh) and the dev code (tsc) and runs it: dev/demo.ts.
 * Plain JavaScript because it runs before any build, on Node 20 too, which cannot run TypeScript.
 */
const { spawn, spawnSync } = require('node:child_process');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const ts = require('typescript');

const root = join(__dirname, '..');

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

/** @type {typeof import('./demoCli')} */
const { USAGE, UsageError, parseDemoArgs } = require('./demoCli');

const args = process.argv.slice(2);
try {
	if (parseDemoArgs(args).kind === 'help') {
		console.log(USAGE);
		process.exit(0);
	}
} catch (error) {
	if (!(error instanceof UsageError)) throw error;
	console.error(`${error.message}\n\n${USAGE}`);
	process.exit(2);
}

for (const [command, ...commandArgs] of [
	['bash', join(root, 'dev', 'build.sh')],
	[join(root, 'node_modules', '.bin', 'tsc'), '-p', join(root, 'tsconfig.dev.json')],
]) {
	const { status } = spawnSync(command, commandArgs, { cwd: root, stdio: 'inherit' });
	if (status !== 0) process.exit(status ?? 1);
}

const demo = spawn(process.execPath, [join(root, '.dev-dist', 'dev', 'demo.js'), ...args], {
	cwd: root,
	stdio: 'inherit',
});
// Ctrl+C reaches the demo too (same process group); this one waits for it to end.
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
	process.on(signal, () => demo.kill(signal));
}
demo.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
