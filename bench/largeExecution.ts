/**
 * (i) One execution of tens of thousands of items, Trigger Automation at its defaults, against a
 * service that answers in 20 ms with no limit: items/s and the peak RSS of the process. Each run in
 * a fresh process (this file run as the child) through n8n-core's engine, after a warm-up run of a
 * thousand items; the items are built before the baseline, as in n8n they arrive from the previous
 * node. Measured in the engine rather than the app so that the peak is the one process's alone
 * (the kernel's high-water mark of RSS, VmHWM, reset after the baseline), and comparable with the
 * figures the issue gives for earlier commits, measured the same way.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

import { outputOf, runWorkflow } from '../dev/engine';
import { kernelPeakRss } from './memory';
import { elapsedMs } from './stats';
import { LAST_NODE, failedItem, orderItem, sideWorkflow, useSnapshot } from './workload';

export const LARGE_ITEMS = 20_000;
export const LARGE_DELAY_MS = 20;
const WARM_UP_ITEMS = 1000;

export interface LargeRun {
	itemsPerSecond: number;
	failed: number;
	/** RSS before the run (items built, engine warm), and its peak during the run, bytes. */
	rssBefore: number;
	peakRss: number;
}

export function measureLargeExecution(receiverUrl: string): LargeRun {
	const args = ['--expose-gc', __filename, receiverUrl];
	return JSON.parse(execFileSync(process.execPath, args, { encoding: 'utf8' })) as LargeRun;
}

async function child(receiverUrl: string): Promise<void> {
	await useSnapshot();
	const run = async (count: number) => {
		const items = Array.from({ length: count }, (_, i) => orderItem(i));
		const options = sideWorkflow('node', items, 'defaults', receiverUrl, {
			onError: 'continueRegularOutput',
		});
		global.gc?.();
		const rssBefore = process.memoryUsage().rss;
		writeFileSync('/proc/self/clear_refs', '5'); // resets VmHWM to the current RSS
		const started = process.hrtime.bigint();
		const output = outputOf(await runWorkflow(options), LAST_NODE);
		const seconds = elapsedMs(started) / 1000;
		if (output.length !== count) throw new Error(`${output.length} output items, not ${count}`);
		const failed = output.filter((item) => failedItem(item.json)).length;
		return { itemsPerSecond: count / seconds, failed, rssBefore, peakRss: kernelPeakRss() };
	};
	await run(WARM_UP_ITEMS);
	process.stdout.write(JSON.stringify(await run(LARGE_ITEMS)));
}

if (require.main === module) void child(process.argv[2]);
