/**
 * The real n8n app (e2e/.apps/n8n-2, n8n 2.41.1 on Node 24) running the bench's executions as
 * production does: the package installed from a tarball of the bench's snapshot, as n8n installs a
 * community package; one published workflow per side, Webhook (POST, answers with the last node's
 * items once the execution ends) → Split Out → the side at its defaults with On Error → Continue.
 * A burst of N executions is N webhook calls at once, so n8n parses them, creates and saves the
 * executions and runs them in its one process, with its own timers, database and logging: the
 * load a real burst meets. Trigger Automation's credential is pointed at a new `{base_url}` before
 * a run that must meet a service afresh (n8n reads a credential from its database per execution).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IDataObject, INode } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../credentials/common/credentialType';
import type { WorkflowFile } from '../dev/exampleFiles';
import { APPS, N8nInstance, setUpOwner } from '../dev/n8nApp';
import { Rest } from '../e2e/support/rest';
import { webhookNode } from '../e2e/support/workflows';
import { elapsedMs } from './stats';
import type { EngineSide } from './workload';
import { SECRET, SNAPSHOT_DIR, WEBHOOK_PATH, sideNodes } from './workload';

/** The sides the app runs: the bare node is the bench's own, not an installable package. */
export type AppSide = Extract<EngineSide, 'node' | 'httpNode'>;

const CREDENTIALS: Record<AppSide, { id: string; name: string }> = {
	node: { id: 'benchNodeCred001', name: 'Bench: Trigger Automation' },
	httpNode: { id: 'benchHttpCred001', name: 'Bench: HTTP Request node' },
};
const WORKFLOW_IDS: Record<AppSide, string> = {
	node: 'benchNodeFlow001',
	httpNode: 'benchHttpFlow001',
};

function workflow(side: AppSide, url: string): WorkflowFile {
	const sent = sideNodes(side, 'defaults', url);
	const last = sent[sent.length - 1];
	sent[sent.length - 1] = {
		...last,
		onError: 'continueRegularOutput',
		credentials: { [CREDENTIAL_TYPE]: CREDENTIALS[side] },
	} as INode;
	const nodes = [
		webhookNode('bench-webhook', `bench-${side}`),
		{
			id: 'bench-split',
			name: 'Split Out',
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			position: [200, 0],
			parameters: { fieldToSplitOut: 'body.orders', options: {} },
		},
		...sent.map((node, i) => ({ ...node, position: [400 + 200 * i, 0] })),
	];
	const link = (to: { name: string }) => ({ main: [[{ node: to.name, type: 'main', index: 0 }]] });
	const connections = Object.fromEntries(nodes.slice(1).map((to, i) => [nodes[i].name, link(to)]));
	return {
		id: WORKFLOW_IDS[side],
		name: `Bench: Webhook → Split Out → ${side}`,
		nodes,
		connections,
		settings: { executionOrder: 'v1' },
	} as unknown as WorkflowFile;
}

export interface AppBurst {
	seconds: number;
	/** Every execution's output items (Continue On Fail: one per item). */
	output: IDataObject[];
}

/** Queue mode: the settings for Redis and PostgreSQL (e2e/support/queueServices.ts), and workers. */
export interface QueueSetup {
	env: Record<string, string>;
	workers: number;
	/** Executions each worker runs at once (`n8n worker --concurrency`). */
	concurrency: number;
}

export class Production {
	private constructor(
		private readonly n8n: N8nInstance,
		private readonly rest: Rest,
		/** Queue mode: the workers, which run every execution the main enqueues. */
		readonly workers: N8nInstance[] = [],
	) {}

	/**
	 * n8n with the snapshot installed, both workflows published, sending to `receiverUrl`; with
	 * `queue`, a main and workers in queue mode, the package installed on each.
	 */
	static async start(receiverUrl: string, queue?: QueueSetup): Promise<Production> {
		const packDir = mkdtempSync(join(tmpdir(), 'bench-pack-'));
		const name = execFileSync(
			'npm',
			['pack', SNAPSHOT_DIR, '--ignore-scripts', '--pack-destination', packDir],
			{ encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
		)
			.trim()
			.split('\n')
			.pop()!;
		const n8n = new N8nInstance(APPS['n8n-2'], { env: queue?.env });
		const workers = Array.from(
			{ length: queue?.workers ?? 0 },
			() => new N8nInstance(APPS['n8n-2'], { env: queue?.env }),
		);
		try {
			// A worker loads nodes from its own user folder.
			for (const instance of [n8n, ...workers]) instance.installPackage(join(packDir, name));
			rmSync(packDir, { recursive: true, force: true });
			const httpUrl = `${receiverUrl}${WEBHOOK_PATH}`;
			await n8n.import(
				'credentials',
				(['node', 'httpNode'] as const).map((side) => ({
					...CREDENTIALS[side],
					type: CREDENTIAL_TYPE,
					data: { webhookUrl: httpUrl, signingSecret: SECRET },
				})),
			);
			await n8n.import('workflow', [workflow('node', httpUrl), workflow('httpNode', httpUrl)]);
			for (const id of Object.values(WORKFLOW_IDS)) await n8n.activate(id);
			await n8n.start();
			const production = new Production(n8n, new Rest(n8n, await setUpOwner(n8n)), workers);
			const concurrency = `--concurrency=${queue?.concurrency ?? 10}`;
			await Promise.all(workers.map((worker) => worker.start(180_000, ['worker', concurrency])));
			await production.awaitWebhooks();
			return production;
		} catch (error) {
			await Promise.all([n8n, ...workers].map((instance) => instance.stop()));
			for (const instance of [n8n, ...workers]) instance.dispose();
			throw error;
		}
	}

	/** n8n registers published workflows' webhooks just after its editor answers: until then, 404. */
	private async awaitWebhooks(): Promise<void> {
		const deadline = Date.now() + 60_000;
		for (const side of ['node', 'httpNode'] as const) {
			for (;;) {
				const response = await fetch(`${this.n8n.baseUrl}/webhook/bench-${side}`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ orders: [] }),
				});
				await response.text();
				if (response.status !== 404) break;
				if (Date.now() > deadline) throw new Error(`The webhook of ${side} is not registered`);
				await new Promise((resolve) => setTimeout(resolve, 250));
			}
		}
	}

	/** Trigger Automation's credential now names this webhook URL (a service, or nginx before it). */
	async pointNodeAt(webhookUrl: string): Promise<void> {
		const { id, name } = CREDENTIALS.node;
		await this.rest.call('PATCH', `/credentials/${id}`, {
			name,
			type: CREDENTIAL_TYPE,
			data: { webhookUrl, signingSecret: SECRET },
		});
	}

	/** One execution of `side` per list of items, all webhook calls at once; to the last answer. */
	async burst(side: AppSide, executions: IDataObject[][]): Promise<AppBurst> {
		const started = process.hrtime.bigint();
		const answers = await Promise.all(
			executions.map(async (orders) => {
				const response = await fetch(`${this.n8n.baseUrl}/webhook/bench-${side}`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ orders }),
				});
				const text = await response.text();
				if (!response.ok)
					throw new Error(`${side}: the webhook answered ${response.status} ${text}`);
				return JSON.parse(text) as IDataObject[] | IDataObject;
			}),
		);
		const seconds = elapsedMs(started) / 1000;
		return {
			seconds,
			output: answers.flatMap((answer) => (Array.isArray(answer) ? answer : [answer])),
		};
	}

	get version(): string {
		return this.n8n.version;
	}

	async stop(): Promise<void> {
		await Promise.all([this.n8n, ...this.workers].map((instance) => instance.stop()));
		for (const instance of [this.n8n, ...this.workers]) instance.dispose();
	}
}
