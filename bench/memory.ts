/**
 * Peak RSS growth for one item whose body is 10 MiB, through the engine and Trigger Automation to
 * the receiver, each run in a fresh process (this file run as the child, with --expose-gc). The
 * item is built before the baseline, as in n8n it arrives from the previous node; the peak is the
 * kernel's high-water mark of RSS (VmHWM), reset after the baseline.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { outputOf, runWorkflow } from '../dev/engine';
import { LAST_NODE, bodyFor, sideWorkflow, useSnapshot } from './workload';

export const MEMORY_BODY_BYTES = 10 * 1024 * 1024;
const SOURCE_TYPE = 'bench.memorySource';

type MemoryReport = { bodyBytes: number; growth: number };

export function measureMemory(receiverUrl: string, runs: number): MemoryReport[] {
	return Array.from({ length: runs }, () => {
		const args = ['--expose-gc', __filename, receiverUrl];
		return JSON.parse(execFileSync(process.execPath, args, { encoding: 'utf8' })) as MemoryReport;
	});
}

let sourceItems: IDataObject[] = [];

/** Emits items already in memory, as the output of a previous node would be. */
const source: INodeType = {
	description: {
		displayName: 'Memory Source',
		name: SOURCE_TYPE,
		group: ['trigger'],
		version: 1,
		description: 'Emits items that are already in memory',
		defaults: { name: 'Start' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	},
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [sourceItems.map((json) => ({ json }))];
	},
};

/** Order lines, all different, until the body is `bytes` long. */
function bigContext(bytes: number): IDataObject {
	const lines: IDataObject[] = [];
	let size = bodyFor({ lines: [] }).length;
	for (let i = 0; size < bytes; i++) {
		const line = {
			line: i,
			sku: `SKU-${(i * 7919) % 100_000}`,
			name: `Product ${i}`,
			qty: 1 + (i % 9),
		};
		size += JSON.stringify(line).length + (i > 0 ? 1 : 0);
		lines.push(line);
	}
	return { lines };
}

function run(receiverUrl: string) {
	const options = sideWorkflow('node', [], 1, receiverUrl);
	options.workflow.nodes[0] = { ...options.workflow.nodes[0], type: SOURCE_TYPE };
	options.pinData = undefined;
	return runWorkflow({ ...options, extraNodeTypes: { [SOURCE_TYPE]: source } });
}

/** The process's peak resident memory so far, as the kernel counts it (VmHWM). */
export function kernelPeakRss(): number {
	const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
	if (!match) throw new Error('No VmHWM in /proc/self/status');
	return Number(match[1]) * 1024;
}

async function child(receiverUrl: string): Promise<void> {
	await useSnapshot();
	sourceItems = [{ orderId: 1 }];
	await run(receiverUrl); // warm-up: the engine, the package and axios loaded and compiled
	sourceItems = [bigContext(MEMORY_BODY_BYTES)];
	const bodyBytes = bodyFor(sourceItems[0]).length;
	global.gc?.();
	global.gc?.();
	const before = process.memoryUsage().rss;
	writeFileSync('/proc/self/clear_refs', '5'); // resets VmHWM to the current RSS
	const [item] = outputOf(await run(receiverUrl), LAST_NODE);
	if (item?.json.statusCode !== 202) throw new Error('The 10 MiB item was not accepted');
	const report: MemoryReport = { bodyBytes, growth: kernelPeakRss() - before };
	process.stdout.write(JSON.stringify(report));
}

if (require.main === module) void child(process.argv[2]);
