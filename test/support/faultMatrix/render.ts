/**
 * The matrix as a page: docs/fault-matrix.md, generated from the cases
 * (test/nodes/TriggerAutomation/faults/matrix.test.ts keeps the two in sync).
 */
import { CASES } from './index';
import { URL_HINT } from './shared';
import type { MatrixCase } from './types';
import { INPUT_GROUPS } from './types';

function cell(text: string): string {
	return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function shown(template: string): string {
	return template
		.replace(` ${URL_HINT}`, ' Expected … (the shape, and where to copy the URL)')
		.replace(/\{host\}/g, '<host>')
		.replace(/\{any\}/g, '…');
}

function quoted(message: string): string {
	const text = shown(message);
	return /[.!?]$/.test(text) ? `“${text}”` : `“${text}”.`;
}

function behaviour(c: MatrixCase): string {
	const outcome = c.expect;
	let text: string;
	if (c.custom) text = c.note ?? '';
	else if (outcome.kind === 'notStarted')
		text = `n8n does not start the workflow: ${quoted(outcome.message)}`;
	else if (outcome.kind === 'sent')
		text = `Sent; output \`statusCode\` ${outcome.statusCode ?? 202}.`;
	else {
		const status = outcome.httpCode ? `, \`httpCode\` ${outcome.httpCode}` : '';
		const code = outcome.code ? ` (\`${outcome.code}\`${status})` : '';
		text = `${c.scope === 'all' ? 'Every item fails' : 'The item fails'}${code}: ${quoted(outcome.message)}`;
	}
	if (!c.custom && c.note) text += ` ${c.note}`;
	return text;
}

/** docs/fault-matrix.md, whole. */
export function renderFaultMatrix(cases: MatrixCase[] = CASES): string {
	const inputs = cases.filter((c) => INPUT_GROUPS.includes(c.group)).length;
	const lines = [
		'# Fault and bad-input matrix',
		'',
		'<!-- Generated from test/support/faultMatrix/; `UPDATE_FAULT_MATRIX=1 npx vitest run test/nodes/TriggerAutomation/faults/matrix.test.ts` rewrites it. -->',
		'',
		`${inputs} bad inputs and ${cases.length - inputs} faults, each proved by a test in \`test/nodes/TriggerAutomation/faults/\``,
		'in n8n\'s engine against a local receiver. Unless a case says "every item", only the middle of three',
		'items is affected; each case runs with On Error set to stop, to continue, and to continue on the error',
		'output (the Stopping cases run as described). Unless a case sets them, Options → Sending is One at a',
		'Time (so that a fault reaches exactly the middle item) and Retries When Not Accepted is 0; the',
		'Adaptive default has its own tests (`test/nodes/TriggerAutomation/sending/sending.engine.test.ts`).',
		'',
		"- **The code** in brackets is the failure's code, `details.code` of the error item and",
		'  `context.code` of the error that stops the node ([what each means](reference.md#errors)).',
		'- **Other items are unaffected**: with On Error → Continue each item gets its own output, paired',
		'  with its input item (`pairedItem`); the failing item carries `error` and `details` (`itemIndex`,',
		"  `code`, `description`, `httpCode`; on the error output n8n adds the input item's fields). Without",
		'  Continue On Fail the node stops at the failing item: items before it were sent (their runs exist, their',
		'  output is lost with the error), later items are not sent (with Fixed Batches, the rest of the',
		'  failing batch was already sent; with Adaptive, the items already in flight).',
		'- **Requests** is how many requests of the affected item reached the service. The node repeats a',
		'  request only when the service provably did not take the first one (connection refused, or a 429,',
		'  with Retries When Not Accepted), and every repeat carries a fresh timestamp and signature. With',
		"  n8n's Retry On Fail, items already accepted are passed on from the earlier attempt (last row).",
		'- **No secret in sight**: neither the signing secret nor any sent signature appears in any output item,',
		'  error message, description or anything n8n or the node logged, in every case below.',
		'- **Spec** names the section of [interface.md](interface.md) (§), or says the interface is silent and',
		'  what was chosen.',
	];
	const groups = [...new Set(cases.map((c) => c.group))];
	for (const group of groups) {
		lines.push(
			'',
			`**${group}**`,
			'',
			'| Case | What happens | Requests | Spec |',
			'| --- | --- | --- | --- |',
		);
		for (const c of cases.filter((x) => x.group === group)) {
			lines.push(`| ${cell(c.case)} | ${cell(behaviour(c))} | ${c.requests} | ${cell(c.spec)} |`);
		}
	}
	return `${lines.join('\n')}\n`;
}
