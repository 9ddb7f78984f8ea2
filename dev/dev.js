// @ts-check
/**
 * `npm run dev`: reads its flags and says what to install when the checkout lacks it, within a
 * second and before anything is built: --help and a flag error answer at once, then the dev
 * dependencies (node_modules, from npm ci), then the n8n app the editor runs (dev/devCli.js). Only
 * then builds and runs dev/n8nDev.ts.
 */
const { existsSync } = require('node:fs');
const { join } = require('node:path');

// Plain JavaScript needing only Node's own modules: it answers even without node_modules.
const { USAGE, UsageError, devOptions, notInstalled } = require('./devCli');

const args = process.argv.slice(2);
const root = join(__dirname, '..');

let options;
try {
	options = devOptions(args);
} catch (error) {
	if (!(error instanceof UsageError)) throw error;
	console.error(`npm run dev: ${error.message}. npm run dev -- --help lists the flags.`);
	process.exit(2);
}
if (options.help) {
	console.log(USAGE);
	process.exit(0);
}

// Checked by hand: without node_modules not even TypeScript can be loaded.
if (!existsSync(join(root, 'node_modules', '.bin', 'n8n-node'))) {
	console.error(`npm run dev: this checkout has no node_modules yet. First:
  npm ci --ignore-scripts --legacy-peer-deps   # the dev dependencies
  bash e2e/install.sh n8n-2                    # once: the n8n the editor runs (n8n-1 for -- --n8n 1)
then npm run dev again.`);
	process.exit(1);
}

const problem = notInstalled(join(root, 'e2e', '.apps'), options.appId);
if (problem) {
	console.error(`npm run dev: ${problem}. Then npm run dev again.`);
	process.exit(1);
}

// Required only now: it is what builds.
const { buildAndRun } = require('./launch');
buildAndRun('n8nDev', args);
