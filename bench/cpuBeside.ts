/**
 * Other work on the machine, as issue 53 asks the limited bursts to be measured beside: a child
 * process that keeps one core busy (a Node loop with no I/O) for as long as `run` takes.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';

/** Runs `run` while a CPU-bound process spins beside it; that process has ended when this returns. */
export async function besideCpuBound<T>(run: () => Promise<T>): Promise<T> {
	const spinner = spawn(
		process.execPath,
		['-e', "process.stdout.write('spinning\\n'); for (;;);"],
		{
			stdio: ['ignore', 'pipe', 'inherit'],
		},
	);
	const exited = once(spinner, 'exit');
	try {
		// Measured from its first turn of the loop, not from its start-up.
		await once(spinner.stdout, 'data');
		return await run();
	} finally {
		spinner.kill('SIGKILL');
		await exited;
	}
}
