/**
 * Child process for measurement 3 (run with --expose-gc): one item whose context is ~10 MB of
 * JSON goes through the engine and Trigger Automation to the receiver, in a process that has done
 * nothing else but a small warm-up run. The item is built before the baseline is taken (in n8n it
 * arrives from the previous node), so the growth is what the engine, the node, the credential and
 * n8n's HTTP helper add on top of it. Prints one JSON line.
 *
 * Peak RSS: the kernel's high-water mark (VmHWM, reset through /proc/self/clear_refs right after
 * the baseline) and, as a cross-check, process.memoryUsage() sampled every millisecond.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type {
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { outputOf, runWorkflow } from '../dev/engine';
import type { MemoryChildReport } from './memoryProtocol';
import { useSnapshot } from './packageSnapshot';
import {
	MESSAGE,
	TARGET_NAME,
	TRIGGER_NODE_TYPE,
	targetNode,
	triggerParameters,
	workflow,
} from './workload';

const SOURCE_TYPE = 'bench.memorySource';
const receiverUrl = process.argv[2];
const targetBytes = Number(process.argv[3]);

/** The items the source node emits: already in memory, as output of a previous node would be. */
let sourceItems: IDataObject[] = [];

class MemorySource implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Memory Source',
		name: SOURCE_TYPE,
		group: ['trigger'],
		version: 1,
		description: 'Emits items that are already in memory',
		defaults: { name: 'Start' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [sourceItems.map((json) => ({ json }))];
	}
}

/** An item whose JSON context is close to `bytes` long: order lines, all different. */
function bigContext(bytes: number): IDataObject {
	const lines: IDataObject[] = [];
	let size = JSON.stringify({ data: { message: MESSAGE, context: { lines: [] } } }).length;
	for (let index = 0; size < bytes; index++) {
		const line = {
			line: index,
			sku: `SKU-${(index * 7919) % 100_000}`,
			name: `Product ${index} in colour ${index % 13} and size ${index % 7}`,
			qty: 1 + (index % 9),
			price: Math.round(index * 31.7) / 100,
		};
		size += JSON.stringify(line).length + (index > 0 ? 1 : 0);
		lines.push(line);
	}
	return { lines };
}

function run(receiver: string) {
	const start: INode = {
		id: 'start',
		name: 'Start',
		type: SOURCE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const target = targetNode(TRIGGER_NODE_TYPE, triggerParameters(1), true);
	const options = workflow(start, target, receiver);
	return runWorkflow({ ...options, extraNodeTypes: { [SOURCE_TYPE]: new MemorySource() } });
}

function gcTwice(): void {
	global.gc?.();
	global.gc?.();
}

/** Resets the kernel's peak-RSS mark of this process; false where that is not possible. */
function resetPeakRss(): boolean {
	try {
		writeFileSync('/proc/self/clear_refs', '5');
		return true;
	} catch {
		return false;
	}
}

function kernelPeakRss(): number | undefined {
	try {
		const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
		return match ? Number(match[1]) * 1024 : undefined;
	} catch {
		return undefined;
	}
}

async function main(): Promise<void> {
	await useSnapshot();
	// Warm-up: the engine, the package, axios and the connection code are loaded and compiled.
	sourceItems = [{ orderId: 1 }];
	await run(receiverUrl);

	sourceItems = [bigContext(targetBytes)];
	const bodyBytes = Buffer.byteLength(
		JSON.stringify({ data: { message: MESSAGE, context: sourceItems[0] } }),
	);
	gcTwice();
	const before = process.memoryUsage();
	const peakResettable = resetPeakRss();
	const peak = { rss: before.rss, heapUsed: before.heapUsed, external: before.external };
	let samples = 0;
	const sampler = setInterval(() => {
		const now = process.memoryUsage();
		samples++;
		peak.rss = Math.max(peak.rss, now.rss);
		peak.heapUsed = Math.max(peak.heapUsed, now.heapUsed);
		peak.external = Math.max(peak.external, now.external);
	}, 1);

	const startedAt = process.hrtime.bigint();
	const result = await run(receiverUrl);
	const ms = Number(process.hrtime.bigint() - startedAt) / 1e6;
	clearInterval(sampler);
	const after = process.memoryUsage();
	peak.rss = Math.max(peak.rss, after.rss);

	const [item] = outputOf(result, TARGET_NAME);
	if (result.data.resultData.error || item?.json.statusCode !== 202) {
		throw new Error(`The 10 MB item was not accepted: ${JSON.stringify(item?.json)}`);
	}
	const report: MemoryChildReport = {
		bodyBytes,
		baselineRss: before.rss,
		sampledPeakRss: peak.rss,
		kernelPeakRss: peakResettable ? kernelPeakRss() : undefined,
		heapGrowth: peak.heapUsed - before.heapUsed,
		externalGrowth: peak.external - before.external,
		samples,
		ms,
	};
	process.stdout.write(`${JSON.stringify(report)}\n`);
}

main().catch((error: unknown) => {
	process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
	process.exit(1);
});
