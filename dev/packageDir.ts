import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The package root, found from here whether this runs from source or from .dev-dist. */
function findPackageDir(from: string): string {
	for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) {
		const manifest = join(dir, 'package.json');
		if (
			existsSync(manifest) &&
			(JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name ===
				'n8n-nodes-automation-service'
		) {
			return dir;
		}
	}
	throw new Error(`No n8n-nodes-automation-service package.json above ${from}`);
}

export const PACKAGE_DIR = findPackageDir(__dirname);
