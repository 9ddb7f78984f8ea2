/**
 * Other work beside a measurement (bench/cpuBeside.ts): a CPU-bound process runs while the
 * measurement does, and is gone when it returns, however it ended.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

import { besideCpuBound } from '../../bench/cpuBeside';

/** This process's children that spin the loop, a killed one not yet reaped (a zombie) too. */
function spinners(): number[] {
	return execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' })
		.split('\n')
		.map((line) => line.trim().split(/\s+/))
		.filter(
			([, ppid, ...args]) =>
				Number(ppid) === process.pid &&
				(args.join(' ').includes('for (;;);') || args.join(' ').includes('<defunct>')),
		)
		.map(([pid]) => Number(pid));
}

describe('besideCpuBound', () => {
	it('a CPU-bound process spins while the measurement runs, and is ended after it', async () => {
		const during = await besideCpuBound(async () => spinners());
		expect(during).toHaveLength(1);
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
		expect(spinners()).toEqual([]);
	});
});
