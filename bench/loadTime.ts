/** Measurement 4: time to require the built node and credential in fresh processes. */
import { execFileSync } from 'node:child_process';

import { benchScript } from './paths';
import type { Summary } from './stats';
import { summarize } from './stats';

export interface LoadTimeResult {
	/** n8n-workflow already loaded: the package's own modules */
	warm: Summary;
	/** nothing loaded before: includes loading n8n-workflow */
	cold: Summary;
	/** loading n8n-workflow itself, in the warm children */
	peer: Summary;
	instantiate: Summary;
}

interface ChildReport {
	mode: 'warm' | 'cold';
	peerMs: number;
	requireMs: number;
	instantiateMs: number;
}

function child(mode: 'warm' | 'cold'): ChildReport {
	const output = execFileSync(process.execPath, [benchScript('loadTimeChild'), mode], {
		encoding: 'utf8',
	});
	return JSON.parse(output) as ChildReport;
}

export function measureLoadTime(runs: number): LoadTimeResult {
	const warm: ChildReport[] = [];
	const cold: ChildReport[] = [];
	// Interleaved, so that file-cache state and machine load are shared by both.
	for (let run = 0; run < runs; run++) {
		warm.push(child('warm'));
		cold.push(child('cold'));
	}
	return {
		warm: summarize(warm.map((r) => r.requireMs)),
		cold: summarize(cold.map((r) => r.requireMs)),
		peer: summarize(warm.map((r) => r.peerMs)),
		instantiate: summarize(warm.map((r) => r.instantiateMs)),
	};
}
