/** Measurement 3: peak RSS growth for one item with a 10 MB context, each run a fresh process. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

import type { MemoryChildReport } from './memoryProtocol';
import { benchScript } from './paths';
import type { Summary } from './stats';
import { summarize } from './stats';

export const MEMORY_BODY_BYTES = 10 * 1024 * 1024;

export interface MemoryResult {
	bodyBytes: number;
	/** peak RSS − baseline RSS, bytes (the larger of kernel peak and sampled peak) */
	growth: Summary;
	/** growth / body size */
	multiple: Summary;
	kernelAvailable: boolean;
	sampledGrowth: Summary;
	heapGrowth: Summary;
	externalGrowth: Summary;
	samples: Summary;
	ms: Summary;
}

const run = promisify(execFile);

async function child(receiverUrl: string): Promise<MemoryChildReport> {
	const { stdout } = await run(
		process.execPath,
		['--expose-gc', benchScript('memoryChild'), receiverUrl, String(MEMORY_BODY_BYTES)],
		{ encoding: 'utf8', maxBuffer: 1024 * 1024 },
	);
	return JSON.parse(stdout) as MemoryChildReport;
}

export async function measureMemory(receiverUrl: string, runs: number): Promise<MemoryResult> {
	const reports: MemoryChildReport[] = [];
	for (let i = 0; i < runs; i++) reports.push(await child(receiverUrl));
	const growths = reports.map(
		(r) => Math.max(r.sampledPeakRss, r.kernelPeakRss ?? 0) - r.baselineRss,
	);
	return {
		bodyBytes: reports[0].bodyBytes,
		growth: summarize(growths),
		multiple: summarize(growths.map((growth, i) => growth / reports[i].bodyBytes)),
		kernelAvailable: reports.every((r) => r.kernelPeakRss !== undefined),
		sampledGrowth: summarize(reports.map((r) => r.sampledPeakRss - r.baselineRss)),
		heapGrowth: summarize(reports.map((r) => r.heapGrowth)),
		externalGrowth: summarize(reports.map((r) => r.externalGrowth)),
		samples: summarize(reports.map((r) => r.samples)),
		ms: summarize(reports.map((r) => r.ms)),
	};
}
