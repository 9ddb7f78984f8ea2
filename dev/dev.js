// @ts-check
/**
 * `npm run dev`: says what to install when the checkout lacks it, within a second and before
 * anything is built: the dev dependencies (node_modules, from npm ci), then the n8n app the editor
 * runs (dev/devCli.js). Only then builds and runs dev/n8nDev.ts.
 */
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const args = process.argv.slice(2);
const root = join(__dirname, '..');

// Checked by hand: without node_modules not even TypeScript can be loaded.
if (!existsSync(join(root, 'node_modules', '.bin', 'n8n-node'))) {
	console.error(`npm run dev: this checkout has no node_modules yet. First:
  npm ci --ignore-scripts --legacy-peer-deps   # the dev dependencies
  bash e2e/install.sh n8n-2                    # once: the n8n the editor runs (n8n-1 for -- --n8n 1)
then npm run dev again.`);
	process.exit(1);
}

const { UsageError, devOptions, notInstalled } = require('./devCli');
const { buildAndRun } = require('./launch');

let options;
try {
	options = devOptions(args);
} catch (error) {
	if (!(error instanceof UsageError)) throw error;
	console.error(`npm run dev: ${error.message}`);
	process.exit(2);
}
const problem = notInstalled(join(root, 'e2e', '.apps'), options.appId);
if (problem) {
	console.error(`npm run dev: ${problem}. Then npm run dev again.`);
	process.exit(1);
}

buildAndRun('n8nDev', args);
