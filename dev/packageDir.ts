import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { PACKAGE_NAME } from './packageNames';

/** The package root, found from here whether this runs from source or from .dev-dist. */
function findPackageDir(from: string): string {
	for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) {
		const manifest = join(dir, 'package.json');
		if (
			existsSync(manifest) &&
			(JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === PACKAGE_NAME
		) {
			return dir;
		}
	}
	throw new Error(`No ${PACKAGE_NAME} package.json above ${from}`);
}

export const PACKAGE_DIR = findPackageDir(__dirname);
