// @ts-check
/**
 * `npm start`: reads its flags before anything is built, so that --help and a flag error answer in
 * a second instead of after the build (6 s on a quiet machine, 26 s on a busy one). The rules are
 * dev/demoCli.ts, loaded from source (it imports no n8n module). Only a command that passed builds
 * and runs dev/demo.ts (dev/launch.js).
 */
const { buildAndRun, requireFromSource } = require('./launch');

requireFromSource();
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

buildAndRun('demo', args);
