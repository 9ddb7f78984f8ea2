/**
 * Time to `require` the built node and credential, each in a fresh process (this file run as the
 * child). Warm: n8n-workflow, a peer dependency n8n has loaded before any community package, is
 * required first and not counted; cold: nothing is loaded before. Imports node:* only, so the
 * child loads nothing else first.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const SNAPSHOT_DIST = join(__dirname, '..', 'bench-package', 'dist');

interface ChildReport {
	peerMs: number;
	requireMs: number;
}

export function measureLoadTime(runs: number): { warm: number[]; cold: number[]; peer: number[] } {
	const result = { warm: [] as number[], cold: [] as number[], peer: [] as number[] };
	// Interleaved, so that both cases share the file cache and the machine's load.
	for (let run = 0; run < runs; run++) {
		for (const mode of ['warm', 'cold'] as const) {
			const out = execFileSync(process.execPath, [__filename, mode], { encoding: 'utf8' });
			const report = JSON.parse(out) as ChildReport;
			result[mode].push(report.requireMs);
			if (mode === 'warm') result.peer.push(report.peerMs);
		}
	}
	return result;
}

function child(mode: string): void {
	const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;
	let peerMs = 0;
	if (mode === 'warm') {
		const peerStart = process.hrtime.bigint();
		require('n8n-workflow');
		peerMs = ms(peerStart);
	}
	const start = process.hrtime.bigint();
	const node = require(join(SNAPSHOT_DIST, 'nodes/TriggerAutomation/TriggerAutomation.node.js'));
	const credential = require(
		join(SNAPSHOT_DIST, 'credentials/ServiceWebhookSecretApi.credentials.js'),
	);
	const requireMs = ms(start);
	if (!node.TriggerAutomation || !credential.ServiceWebhookSecretApi) throw new Error('Not loaded');
	process.stdout.write(JSON.stringify({ peerMs, requireMs }));
}

if (require.main === module) child(process.argv[2]);
