/**
 * (i) One execution of 50,000 items, Trigger Automation at its defaults, against a service that
 * answers in 20 ms with no limit: items/s and the peak RSS of the process (issue 75: 1,500/s or
 * more within 1 GiB). Each run in a fresh process (this file run as the child) through n8n-core's
 * engine, after a warm-up run of a thousand items; the items are built before the baseline, as in
 * n8n they arrive from the previous node. Measured in the engine rather than the app so that the
 * peak is the one process's alone (the kernel's high-water mark of RSS, VmHWM, reset after the
 * baseline).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

import { outputOf, runWorkflow } from '../dev/engine';
import { kernelPeakRss } from './memory';
import { addFingerprint } from './receiver';
import { elapsedMs } from './stats';
import { LAST_NODE, bodyFor, failedItem, orderItem, sideWorkflow, useSnapshot } from './workload';

export const LARGE_ITEMS = 50_000;
export const LARGE_DELAY_MS = 20;
export const WARM_UP_ITEMS = 1000;

export interface LargeRun {
	itemsPerSecond: number;
	failed: number;
	/** RSS before the run (items built, engine warm), and its peak during the run, bytes. */
	rssBefore: number;
	peakRss: number;
	/** The service accepted exactly the warm-up's and the run's bodies, and none failed. */
	eachOnce: boolean;
}

/** One run in a fresh process; whether each item was accepted once is the caller's to count. */
export function measureLargeExecution(receiverUrl: string): Omit<LargeRun, 'eachOnce'> {
	const args = ['--expose-gc', __filename, receiverUrl];
	return JSON.parse(execFileSync(process.execPath, args, { encoding: 'utf8' })) as LargeRun;
}

/** What the service should have accepted from one run: the warm-up's bodies and the run's. */
export function largeFingerprint(): number {
	const bodies = (count: number) => Array.from({ length: count }, (_, i) => bodyFor(orderItem(i)));
	return [...bodies(WARM_UP_ITEMS), ...bodies(LARGE_ITEMS)].reduce(addFingerprint, 0);
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
