/**
 * What `n8n execute --id=<id> --rawOutput` prints: the execution, as indented JSON between n8n's own
 * log lines. Read by the end-to-end suite and the compatibility run. And what n8n stored of it.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';

import type { CliResult, N8nInstance } from '../../dev/n8nApp';
import { appDir } from '../../dev/n8nApp';

export interface ExecutionOutput {
	status: string;
	finished?: boolean;
	data: {
		resultData: {
			error?: { message: string; description?: string };
			runData: Record<
				string,
				Array<{ data?: { main: Array<Array<{ json: Record<string, unknown> }>> } }>
			>;
		};
	};
}

/** `n8n execute` of a workflow the instance imported, to its end: the execution it printed. */
export async function executeWorkflow(n8n: N8nInstance, id: string): Promise<ExecutionOutput> {
	return executionOf(await n8n.cli(['execute', `--id=${id}`, '--rawOutput']));
}

export function executionOf(result: CliResult): ExecutionOutput {
	const start = result.stdout.search(/^\{$/m);
	const end = result.stdout.indexOf('\n}\n', start);
	if (start === -1 || end === -1) {
		throw new Error(`no execution in the output:\n${result.stdout}\n${result.stderr}`);
	}
	return JSON.parse(result.stdout.slice(start, end + 2)) as ExecutionOutput;
}

/** The first output's items of a node's first run. */
export function outputItems(execution: ExecutionOutput, node = 'Trigger Automation') {
	return execution.data.resultData.runData[node]?.[0]?.data?.main[0] ?? [];
}

export interface StoredExecution {
	id: string;
	workflowId: string;
	status: string;
	/** The execution data as n8n stores it (flatted text). */
	text: string;
	/** The same, parsed. */
	data: {
		resultData: {
			error?: { message: string; context?: { request?: { headers?: Record<string, string> } } };
		};
	};
}

/**
 * The executions an n8n instance stored in its SQLite database, read with the app's own sqlite3
 * and flatted (the format n8n stores execution data in), once the CLI command that ran them ended.
 */
export async function storedExecutions(n8n: N8nInstance): Promise<StoredExecution[]> {
	const load = createRequire(join(appDir(n8n.app), 'node_modules', 'n8n', 'package.json'));
	const sqlite3 = load('sqlite3') as {
		Database: new (file: string) => {
			all(
				sql: string,
				done: (error: Error | null, rows: Array<Record<string, string>>) => void,
			): void;
			close(): void;
		};
	};
	const flatted = load('flatted') as { parse(text: string): StoredExecution['data'] };
	const db = new sqlite3.Database(join(n8n.userFolder, '.n8n', 'database.sqlite'));
	try {
		const rows = await new Promise<Array<Record<string, string>>>((resolve, reject) =>
			db.all(
				'SELECT e.id, e.workflowId, e.status, d.data FROM execution_entity e JOIN execution_data d ON d.executionId = e.id',
				(error, result) => (error ? reject(error) : resolve(result)),
			),
		);
		return rows.map((row) => ({
			id: String(row.id),
			workflowId: row.workflowId,
			status: row.status,
			text: row.data,
			data: flatted.parse(row.data),
		}));
	} finally {
		db.close();
	}
}
