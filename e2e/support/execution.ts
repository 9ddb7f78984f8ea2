/**
 * What `n8n execute --id=<id> --rawOutput` prints: the execution, as indented JSON between n8n's own
 * log lines. Read by the end-to-end suite and the compatibility run.
 */
import type { CliResult } from '../../dev/n8nApp';

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
