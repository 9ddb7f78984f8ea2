/**
 * Where things are, found from this file whether it runs from bench/ or .dev-dist/bench/. No
 * imports beyond node:*: the load-time child uses this before anything else is loaded.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const PACKAGE_NAME = 'n8n-nodes-automation-service';

function findPackageDir(from: string): string {
	for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) {
		const manifest = join(dir, 'package.json');
		if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === PACKAGE_NAME) {
			return dir;
		}
	}
	throw new Error(`No ${PACKAGE_NAME} package.json above ${from}`);
}

export const PACKAGE_DIR = findPackageDir(__dirname);

/**
 * A private copy of package.json and the freshly built dist/, taken when the bench starts
 * (packageSnapshot.ts): every phase and child process loads this one build, even if dist/ is
 * rebuilt meanwhile by someone else working in the same tree.
 */
export const SNAPSHOT_DIR = join(PACKAGE_DIR, '.dev-dist', 'bench-package');

/** The built modules n8n requires when it loads the package (package.json `n8n`). */
export const BUILT_NODE = join(
	SNAPSHOT_DIR,
	'dist/nodes/TriggerAutomation/TriggerAutomation.node.js',
);
export const BUILT_CREDENTIAL = join(
	SNAPSHOT_DIR,
	'dist/credentials/ServiceWebhookSecretApi.credentials.js',
);

/** The signing helper as shipped (measurement 2 times this copy, not a dev build of it). */
export const BUILT_SIGNATURE = join(SNAPSHOT_DIR, 'dist/credentials/common/signature.js');

/** A compiled sibling of the running bench file (child process entry points). */
export function benchScript(name: string): string {
	return join(__dirname, `${name}.js`);
}
