/**
 * Other work beside a measurement (bench/cpuBeside.ts): a CPU-bound process runs while the
 * measurement does, and is gone once it has ended, however it ended.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

import { besideCpuBound } from '../../bench/cpuBeside';

/** This process's children that spin the loop (a killed one stays until reaped: not counted). */
function spinners(): number[] {
	return execFileSync('ps', ['-eo', 'pid=,ppid=,stat=,args='], { encoding: 'utf8' })
		.split('\n')
		.map((line) => line.trim().split(/\s+/))
		.filter(
			([, ppid, stat, ...args]) =>
				Number(ppid) === process.pid &&
				!stat?.startsWith('Z') &&
				args.join(' ').includes('for (;;);'),
		)
		.map(([pid]) => Number(pid));
}

/** Waits until no spinner of this process is left (a kill takes effect asynchronously). */
async function noSpinnerLeft(): Promise<void> {
	while (spinners().length > 0) await new Promise((resolve) => setImmediate(resolve));
}

describe('besideCpuBound', () => {
	it('a CPU-bound process spins while the measurement runs, and is ended after it', async () => {
		const during = await besideCpuBound(async () => spinners());
		expect(during).toHaveLength(1);
		await noSpinnerLeft();
		expect(spinners()).toEqual([]);
	});

	it('is ended when the measurement fails too', async () => {
		let during: number[] = [];
		const failing = besideCpuBound(async () => {
			during = spinners();
			throw new Error('measurement failed');
		});
		await expect(failing).rejects.toThrow('measurement failed');
		expect(during).toHaveLength(1);
		await noSpinnerLeft();
		expect(spinners()).toEqual([]);
	});
});
