/**
 * Time to `require` the built node and credential, each time in a fresh process (this file run as
 * the child), with n8n-workflow already loaded and not counted: n8n has loaded its peer dependency
 * before any community package. Imports node:* only, so the child loads nothing else first.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const SNAPSHOT_DIST = join(__dirname, '..', 'bench-package', 'dist');

/** ms per run */
export function measureLoadTime(runs: number): number[] {
	return Array.from({ length: runs }, () =>
		Number(execFileSync(process.execPath, [__filename, 'child'], { encoding: 'utf8' })),
	);
}

function child(): void {
	require('n8n-workflow');
	const start = process.hrtime.bigint();
	const node = require(`${SNAPSHOT_DIST}/nodes/TriggerAutomation/TriggerAutomation.node.js`);
	const credential = require(`${SNAPSHOT_DIST}/credentials/ServiceWebhookSecretApi.credentials.js`);
	const ms = Number(process.hrtime.bigint() - start) / 1e6;
	if (!node.TriggerAutomation || !credential.ServiceWebhookSecretApi) throw new Error('Not loaded');
	process.stdout.write(String(ms));
}

if (require.main === module && process.argv[2] === 'child') child();
