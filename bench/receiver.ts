/** Starts the receiver process (receiverProcess.ts) and talks to it. */
import type { ChildProcess } from 'node:child_process';
import { fork } from 'node:child_process';

import { benchScript } from './paths';
import type { ReceiverCounts, ReceiverReply, ReceiverRequest } from './receiverProtocol';

export class ReceiverProcess {
	private nextId = 0;

	private constructor(
		private readonly child: ChildProcess,
		readonly url: string,
	) {}

	static async start(secret: string): Promise<ReceiverProcess> {
		const child = fork(benchScript('receiverProcess'), [secret], { execArgv: [] });
		const url = await new Promise<string>((resolve, reject) => {
			child.once('error', reject);
			child.once('exit', (code) => reject(new Error(`The receiver exited with code ${code}`)));
			child.once('message', (reply: ReceiverReply) => {
				if (reply.type === 'ready') resolve(reply.url);
			});
		});
		child.removeAllListeners('exit');
		return new ReceiverProcess(child, url);
	}

	/** What the receiver counted since the previous call. */
	async take(): Promise<ReceiverCounts> {
		const id = this.nextId++;
		return await new Promise<ReceiverCounts>((resolve) => {
			const onReply = (reply: ReceiverReply) => {
				if (reply.type === 'counts' && reply.id === id) {
					this.child.off('message', onReply);
					resolve(reply.counts);
				}
			};
			this.child.on('message', onReply);
			this.send({ type: 'take', id });
		});
	}

	async stop(): Promise<void> {
		const exited = new Promise<void>((done) => this.child.once('exit', () => done()));
		this.send({ type: 'stop' });
		await exited;
	}

	private send(message: ReceiverRequest): void {
		this.child.send(message);
	}
}
