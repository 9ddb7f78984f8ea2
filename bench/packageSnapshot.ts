/**
 * The build under test, copied once: package.json and dist/ into SNAPSHOT_DIR. The engine harness
 * caches the first package it loads, so loading the snapshot before any workflow runs makes every
 * run in this process use it. Module resolution from the snapshot still reaches the project's
 * node_modules (it lies inside the project), so n8n-workflow is the same copy n8n-core uses.
 */
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { loadPackage } from '../dev/engine';
import { BUILT_CREDENTIAL, BUILT_NODE, PACKAGE_DIR, SNAPSHOT_DIR } from './paths';

export function takeSnapshot(): void {
	const dist = join(PACKAGE_DIR, 'dist');
	if (!existsSync(join(dist, 'nodes')) || !existsSync(join(dist, 'credentials'))) {
		throw new Error(`No build in ${dist}: run \`npm run bench\` (it builds first).`);
	}
	rmSync(SNAPSHOT_DIR, { recursive: true, force: true });
	mkdirSync(SNAPSHOT_DIR, { recursive: true });
	cpSync(join(PACKAGE_DIR, 'package.json'), join(SNAPSHOT_DIR, 'package.json'));
	cpSync(dist, join(SNAPSHOT_DIR, 'dist'), { recursive: true });
	for (const file of [BUILT_NODE, BUILT_CREDENTIAL]) {
		if (!existsSync(file)) throw new Error(`The build is incomplete: ${file} is missing`);
	}
}

/** Loads the snapshot into the engine harness; call before the first workflow runs. */
export async function useSnapshot(): Promise<void> {
	if (!existsSync(BUILT_NODE)) takeSnapshot();
	const loaded = await loadPackage(SNAPSHOT_DIR);
	if (Object.keys(loaded.nodeTypes).length === 0) {
		throw new Error(`No node types were loaded from ${SNAPSHOT_DIR}`);
	}
}
