/**
 * n8n's REST API (/rest, what its editor calls), as the owner: the executions of a workflow, one
 * execution with its data, n8n's Retry of a failed execution, a workflow saved anew or executed
 * from the editor, an API key; and the public API's Retry. The same calls in n8n 1.x and 2.x; any
 * database (SQLite, or PostgreSQL in queue mode).
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';

import type { N8nInstance } from '../../dev/n8nApp';
import { appDir } from '../../dev/n8nApp';

export interface RestExecution {
	id: string;
	workflowId: string;
	mode: string;
	status: string;
	retryOf?: string | null;
	retrySuccessId?: string | null;
	data: {
		resultData: {
			error?: { message: string; description?: string };
			lastNodeExecuted?: string;
			runData: Record<
				string,
				Array<{
					error?: unknown;
					hints?: Array<{ type: string; message: string }>;
					data?: { main: Array<Array<{ json: Record<string, unknown> }>> };
				}>
			>;
		};
	};
}

export class Rest {
	constructor(
		private readonly n8n: Pick<N8nInstance, 'baseUrl' | 'app'>,
		private readonly cookie: string,
	) {}

	async call<T>(method: string, path: string, body?: unknown): Promise<T> {
		const response = await fetch(`${this.n8n.baseUrl}/rest${path}`, {
			method,
			headers: { 'content-type': 'application/json', cookie: this.cookie },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		if (!response.ok) throw new Error(`${method} /rest${path}: ${response.status} ${text}`);
		return (JSON.parse(text) as { data: T }).data;
	}

	/** The workflow's executions, newest first, without their data. */
	async executions(workflowId: string): Promise<Array<Omit<RestExecution, 'data'>>> {
		const filter = encodeURIComponent(JSON.stringify({ workflowId }));
		const { results } = await this.call<{ results: Array<Omit<RestExecution, 'data'>> }>(
			'GET',
			`/executions?filter=${filter}`,
		);
		return results.map((execution) => ({ ...execution, id: String(execution.id) }));
	}

	/**
	 * The workflow's execution that is not among `known` (ids read before it started), once it has
	 * ended: n8n may list it only a moment after answering its webhook, and as running until saved.
	 */
	async endedExecution(
		workflowId: string,
		known: string[],
		timeoutMs = 60_000,
	): Promise<RestExecution> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const started = (await this.executions(workflowId)).filter((e) => !known.includes(e.id));
			if (started.length > 1) throw new Error(`more than one new execution of ${workflowId}`);
			if (started[0] && !['new', 'running', 'waiting'].includes(started[0].status)) {
				return await this.execution(started[0].id);
			}
			if (Date.now() > deadline) throw new Error(`no new ended execution of ${workflowId}`);
			await new Promise((resolve) => setTimeout(resolve, 250));
		}
	}

	/** One execution, its data parsed from the flatted text n8n sends it as. */
	async execution(id: string): Promise<RestExecution> {
		const raw = await this.call<Omit<RestExecution, 'data'> & { data: string }>(
			'GET',
			`/executions/${id}`,
		);
		return { ...raw, id: String(raw.id), data: this.flatted().parse(raw.data) };
	}

	/**
	 * The Executions list's Retry: "Retry with original workflow" (`loadWorkflow` false) or "Retry
	 * with currently saved workflow" (true). Resolves once the retry has ended, to its id.
	 */
	async retry(id: string, loadWorkflow: boolean): Promise<string> {
		const retried = await this.call<{ id: string | number }>('POST', `/executions/${id}/retry`, {
			loadWorkflow,
		});
		return String(retried.id);
	}

	/**
	 * The editor's Execute Workflow from the workflow's Manual Trigger, as saved: 2.x reads the
	 * trigger to start from, 1.x the workflow sent along too. Resolves to the execution's id.
	 */
	async runManually(id: string, trigger = 'Manual Trigger'): Promise<string> {
		const workflowData = await this.call<Record<string, unknown>>('GET', `/workflows/${id}`);
		const started = await this.call<{ executionId: string | number }>(
			'POST',
			`/workflows/${id}/run`,
			{ workflowData, triggerToStartFrom: { name: trigger } },
		);
		return String(started.executionId);
	}

	/** One execution once it has ended. */
	async ended(id: string, timeoutMs = 60_000): Promise<RestExecution> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const execution = await this.execution(id);
			// n8n 1.x may report the status before the execution's data is saved.
			const ended = !['new', 'running', 'waiting'].includes(execution.status);
			if (ended && execution.data !== undefined) return execution;
			if (Date.now() > deadline) throw new Error(`execution ${id} did not end`);
			await new Promise((resolve) => setTimeout(resolve, 250));
		}
	}

	/** An API key of the owner's for n8n's public API, allowed to retry executions. */
	async createApiKey(): Promise<string> {
		const created = await this.call<{ rawApiKey: string }>('POST', '/api-keys', {
			label: 'e2e retry',
			expiresAt: null,
			scopes: ['execution:read', 'execution:retry'],
		});
		return created.rawApiKey;
	}

	/** The public API's Retry (`POST /api/v1/executions/{id}/retry`): resolves to the retry's id. */
	async publicRetry(apiKey: string, id: string, loadWorkflow: boolean): Promise<string> {
		const response = await fetch(`${this.n8n.baseUrl}/api/v1/executions/${id}/retry`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'x-n8n-api-key': apiKey },
			body: JSON.stringify({ loadWorkflow }),
		});
		const text = await response.text();
		if (!response.ok) throw new Error(`public API retry of ${id}: ${response.status} ${text}`);
		return String((JSON.parse(text) as { id: string | number }).id);
	}

	/** Saves the workflow as the editor's Save does, with `change` applied to it. */
	async saveWorkflow(
		id: string,
		change: (workflow: { nodes: Array<Record<string, unknown>> }) => void,
	): Promise<void> {
		const workflow = await this.call<{
			name: string;
			nodes: Array<Record<string, unknown>>;
			connections: unknown;
			settings: unknown;
			versionId: string;
		}>('GET', `/workflows/${id}`);
		change(workflow);
		const { name, nodes, connections, settings, versionId } = workflow;
		await this.call('PATCH', `/workflows/${id}?forceSave=true`, {
			name,
			nodes,
			connections,
			settings,
			versionId,
		});
	}

	private flatted(): { parse(text: string): RestExecution['data'] } {
		const load = createRequire(join(appDir(this.n8n.app), 'node_modules', 'n8n', 'package.json'));
		return load('flatted') as { parse(text: string): RestExecution['data'] };
	}
}
