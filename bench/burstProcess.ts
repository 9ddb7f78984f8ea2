/**
 * One n8n process of several sending to one service (bench/manyProcesses.ts): a child process
 * (this file) running n8n-core's engine with the bench's snapshot of the package, as the engine
 * scenarios do, that starts a burst of executions at once when told. It loads the engine and the
 * package and sends one unmeasured item to a service of its own (JIT, sockets) before it says it
 * is ready; for each run the parent hands it the executions (`prepare`), and once every process has
 * its workflows built, tells each to `go`.
 */
import type { ChildProcess } from 'node:child_process';
import { fork } from 'node:child_process';
import type { IDataObject } from 'n8n-workflow';

import type { RunOptions } from '../dev/engine';
import { outputOf, runWorkflow } from '../dev/engine';
import { elapsedMs } from './stats';
import { LAST_NODE, failedItem, orderItem, sideWorkflow, useSnapshot } from './workload';

type ToChild =
	| { type: 'prepare'; baseUrl: string; executions: IDataObject[][] }
	| { type: 'go' }
	| { type: 'exit' };

export interface BurstDone {
	/** From `go` to the last execution's end, on the child's clock. */
	seconds: number;
	/** Output items of every execution (On Error → Continue: one per item) … */
	output: number;
	/** … of which errors or answers that are not 2xx. */
	failed: number;
}

type FromChild = { type: 'ready' } | { type: 'prepared' } | ({ type: 'done' } & BurstDone);

/** The parent's handle on one such process. */
export class BurstProcess {
	private constructor(private readonly child: ChildProcess) {}

	/** Forks the process; resolves once it has loaded the engine and sent its warm-up item. */
	static async start(warmUpBaseUrl: string): Promise<BurstProcess> {
		const child = fork(__filename, ['burst', warmUpBaseUrl], { execArgv: [] });
		const handle = new BurstProcess(child);
		await handle.next('ready');
		return handle;
	}

	private next<T extends FromChild['type']>(type: T): Promise<Extract<FromChild, { type: T }>> {
		return new Promise((resolve, reject) => {
			const onExit = (code: number | null) =>
				reject(new Error(`A burst process exited with code ${code} while waiting for ${type}`));
			this.child.once('exit', onExit);
			this.child.once('message', (message: FromChild) => {
				this.child.off('exit', onExit);
				if (message.type === type) resolve(message as Extract<FromChild, { type: T }>);
				else reject(new Error(`A burst process said ${message.type}, not ${type}`));
			});
		});
	}

	/** Builds the run's workflows, one per execution, sending to `baseUrl`; resolves when built. */
	prepare(baseUrl: string, executions: IDataObject[][]): Promise<unknown> {
		const prepared = this.next('prepared');
		this.child.send({ type: 'prepare', baseUrl, executions } satisfies ToChild);
		return prepared;
	}

	/** Starts every execution at once; resolves when all have ended. */
	async go(): Promise<BurstDone> {
		const done = this.next('done');
		this.child.send({ type: 'go' } satisfies ToChild);
		const { seconds, output, failed } = await done;
		return { seconds, output, failed };
	}

	async stop(): Promise<void> {
		if (this.child.exitCode !== null || this.child.signalCode !== null) return;
		const exited = new Promise((resolve) => this.child.once('exit', resolve));
		this.child.send({ type: 'exit' } satisfies ToChild);
		await exited;
	}
}

const workflowFor = (items: IDataObject[], baseUrl: string) =>
	sideWorkflow('node', items, 'defaults', baseUrl, { onError: 'continueRegularOutput' });

async function burst(warmUpBaseUrl: string): Promise<void> {
	const say = (message: FromChild) => process.send?.(message);
	await useSnapshot();
	const warm = outputOf(await runWorkflow(workflowFor([orderItem(0)], warmUpBaseUrl)), LAST_NODE);
	if (warm.length !== 1 || failedItem(warm[0].json)) throw new Error('The warm-up item failed');
	let prepared: RunOptions[] = [];
	process.on('message', (message: ToChild) => {
		if (message.type === 'exit') {
			process.disconnect();
		} else if (message.type === 'prepare') {
			prepared = message.executions.map((items) => workflowFor(items, message.baseUrl));
			say({ type: 'prepared' });
		} else {
			const started = process.hrtime.bigint();
			void Promise.all(prepared.map(runWorkflow)).then((runs) => {
				const seconds = elapsedMs(started) / 1000;
				const output = runs.flatMap((run) => outputOf(run, LAST_NODE));
				const failed = output.filter((item) => failedItem(item.json)).length;
				say({ type: 'done', seconds, output: output.length, failed });
			});
		}
	});
	// The bench is gone (finished or crashed): do not linger.
	process.on('disconnect', () => process.exit(0));
	say({ type: 'ready' });
}

if (require.main === module && process.argv[2] === 'burst') {
	burst(process.argv[3]).catch((error: unknown) => {
		process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : error}\n`);
		process.exit(1);
	});
}
