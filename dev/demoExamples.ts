/**
 * `npm start`'s examples: each run through n8n's engine against the simulator, printed with the
 * failures it means to show (what its items ask the simulator for, in `simulateFailure`), so that a
 * reader tells a failure shown on purpose from one that is not; and one summary line at the end.
 */
import type { IRun } from 'n8n-workflow';

import { outputOf, runWorkflow } from './engine';
import type { Example } from './examples';
import { loadExamples, prepareExample } from './examples';

/**
 * The failures an example's items ask the simulator for, in order: each `simulateFailure` value in
 * its nodes (written as JSON inside a parameter, so its quotes may be escaped). The simulator's
 * names are the node's failure codes.
 */
export function meantFailures(example: Pick<Example, 'nodes'>): string[] {
	const text = JSON.stringify(example.nodes);
	return [...text.matchAll(/simulateFailure\\*"\s*:\s*\\*"(\w+)/g)].map((match) => match[1]);
}

/** What an example showed, against what it meant to. */
export interface Judged {
	file: string;
	/** The meant failures it showed. */
	onPurpose: string[];
	/** What it was not meant to show, or meant to and did not. */
	unexpected: string[];
}

/**
 * Each failure shown counts against one meant failure of its code; any failure left over, an
 * execution that failed, and a meant failure not shown are unexpected.
 */
export function judge(
	file: string,
	meant: string[],
	shown: Array<string | undefined>,
	executionError?: string,
): Judged {
	const left = [...meant];
	const onPurpose: string[] = [];
	const unexpected: string[] = [];
	if (executionError !== undefined) unexpected.push(`${file} failed: ${executionError}`);
	for (const code of shown) {
		const at = code === undefined ? -1 : left.indexOf(code);
		if (at >= 0) onPurpose.push(left.splice(at, 1)[0]);
		else unexpected.push(`${file}: a ${code ?? 'failure'} not meant`);
	}
	if (executionError === undefined) {
		for (const code of left) unexpected.push(`${file}: ${code} meant but not shown`);
	}
	return { file, onPurpose, unexpected };
}

/**
 * The last line of `npm start`: runs created, failures shown on purpose, anything unexpected (and
 * how much of that there was: npm start then exits 1).
 */
export function summary(runs: number, judged: Judged[]): { line: string; unexpected: number } {
	const onPurpose = judged.filter((j) => j.onPurpose.length > 0);
	const shown = onPurpose.reduce((sum, j) => sum + j.onPurpose.length, 0);
	const where = onPurpose.length === 0 ? '' : ` (${onPurpose.map((j) => j.file).join(', ')})`;
	const unexpected = judged.flatMap((j) => j.unexpected);
	if (runs === 0) unexpected.push('no run was created');
	const verdict =
		unexpected.length === 0
			? 'nothing unexpected'
			: `${unexpected.length} unexpected: ${unexpected.join('; ')}`;
	const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
	return {
		line: `Summary: ${plural(runs, 'run')} created; ${plural(shown, 'failure')} shown on purpose${where}; ${verdict}.`,
		unexpected: unexpected.length,
	};
}

function short(value: unknown, width = 100): string {
	const text = typeof value === 'string' ? value : JSON.stringify(value);
	return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}

/** The nodes of a branch after the node's error output, with no node after them, that ran. */
function endsReached(example: Example, run: IRun): string[] {
	const connections = example.connections as Record<string, { main?: unknown[][] }>;
	const hasNext = (name: string) => (connections[name]?.main ?? []).some((out) => out.length > 0);
	return example.nodes
		.filter((node) => node.type.startsWith('n8n-nodes-base.') && !node.type.endsWith('Note'))
		.map((node) => node.name)
		.filter((name) => !hasNext(name) && outputOf(run, name).length > 0);
}

/** Runs every example against the automation, printing each; returns how each was judged. */
export async function runExamples(
	credential: { webhookUrl: string; signingSecret: string },
	print: (line: string) => void,
): Promise<Judged[]> {
	const judged: Judged[] = [];
	for (const example of loadExamples()) {
		const prepared = prepareExample(example, credential);
		const run = await runWorkflow(prepared.options);
		const how =
			prepared.mode === 'workflow'
				? 'workflow'
				: 'its tool node, called with sample $fromAI values as an agent would';
		print(`\n▶ examples/${example.file} — ${example.name} (${how})`);
		const meant = meantFailures(example);
		print(
			meant.length === 0
				? '  Meant to show: every item accepted.'
				: `  Meant to show ${meant.length} failure${meant.length === 1 ? '' : 's'}, asked of the simulator by its items: ${meant.join(', ')}.`,
		);
		if (run.status !== 'success') {
			const error = run.data.resultData.error;
			print(
				`  ✗ ${error?.message ?? run.status}${error?.description ? `\n    ${error.description}` : ''}`,
			);
			judged.push(judge(example.file, meant, [], error?.message ?? run.status));
			continue;
		}
		for (const item of outputOf(run, prepared.nodeName)) {
			print(
				`  ✓ status ${String(item.json.statusCode)}, response ${short(item.json.response, 160)}`,
			);
		}
		// Items on the error output (On Error: Continue (using error output)), and where they went.
		const codes: Array<string | undefined> = [];
		for (const { json } of outputOf(run, prepared.nodeName, 1)) {
			const details = json.details as { itemIndex?: number; code?: string } | undefined;
			const mark =
				details?.code !== undefined && meant.includes(details.code) ? 'meant' : 'NOT meant';
			codes.push(details?.code);
			print(
				`  ✗ item ${details?.itemIndex} (${mark}): ${details?.code}, ${short(json.error, 120)}`,
			);
		}
		// The hints n8n shows above the node's output.
		for (const hint of run.data.resultData.runData[prepared.nodeName]?.[0]?.hints ?? []) {
			print(`  Hint: ${hint.message}`);
		}
		for (const name of endsReached(example, run)) {
			print(`    → "${name}": ${outputOf(run, name).length} item(s)`);
		}
		judged.push(judge(example.file, meant, codes));
	}
	return judged;
}
