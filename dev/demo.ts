/**
 * The main job (`npm start`): runs every example workflow through n8n's real engine with the built
 * node, against the local simulator (default, offline) or a real automation (`--url <webhook URL>`
 * with the secret in AUTOMATION_SIGNING_SECRET, kept out of shell history and the process list),
 * and prints what the automation received.
 * `--serve` only starts the simulator and keeps it running, for trying the node in the n8n editor.
 */
import { randomBytes } from 'node:crypto';
import { get } from 'node:http';

import { outputOf, runWorkflow } from './engine';
import { loadExamples, prepareExample } from './examples';
import type { RunRecord } from './simulator';
import { AutomationServiceSimulator } from './simulator';

const DEMO_AUTOMATION = 'demo-automation';

function argument(name: string): string | undefined {
	const index = process.argv.indexOf(`--${name}`);
	return index === -1 ? undefined : process.argv[index + 1];
}

function fetchJson(url: string): Promise<unknown> {
	return new Promise((resolve, reject) => {
		get(url, (res) => {
			const chunks: Buffer[] = [];
			res.on('data', (chunk: Buffer) => chunks.push(chunk));
			res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
		}).on('error', reject);
	});
}

function short(value: unknown, width = 100): string {
	const text = typeof value === 'string' ? value : JSON.stringify(value);
	return text.length > width ? `${text.slice(0, width - 1)}…` : text;
}

async function runExamples(webhookUrl: string, signingSecret: string): Promise<number> {
	let failures = 0;
	for (const example of loadExamples()) {
		const prepared = prepareExample(example, { webhookUrl, signingSecret });
		const run = await runWorkflow(prepared.options);
		const items = outputOf(run, prepared.nodeName);
		const how =
			prepared.mode === 'workflow' ? 'workflow' : 'tool node, as the AI Agent would call it';
		console.log(`\n▶ examples/${example.file} — ${example.name} (${how})`);
		if (run.status !== 'success') {
			failures++;
			const error = run.data.resultData.error;
			console.log(
				`  ✗ ${error?.message ?? run.status}${error?.description ? `\n    ${error.description}` : ''}`,
			);
			continue;
		}
		for (const item of items) {
			console.log(
				`  ✓ status ${String(item.json.statusCode)}, response ${short(item.json.response, 160)}`,
			);
		}
	}
	return failures;
}

async function main(): Promise<void> {
	const url = argument('url');
	if (url) {
		const secret = process.env.AUTOMATION_SIGNING_SECRET;
		if (!secret) {
			throw new Error(
				'Set AUTOMATION_SIGNING_SECRET to the signing secret from the Webhook details, then run again.',
			);
		}
		console.log(`Triggering the real automation at ${url}`);
		process.exitCode = (await runExamples(url, secret)) > 0 ? 1 : 0;
		return;
	}

	const demoSecret = `demo_${randomBytes(16).toString('hex')}`;
	const simulator = new AutomationServiceSimulator({
		automations: [{ id: DEMO_AUTOMATION, secret: demoSecret }],
	});
	const base = await simulator.start(Number(argument('port') ?? 0));
	const webhookUrl = simulator.webhookUrl(DEMO_AUTOMATION);
	if (process.argv.includes('--serve')) {
		console.log(`Automation Service simulator on ${base}`);
		console.log(`  Webhook URL:    ${webhookUrl}`);
		console.log(`  Signing secret: ${demoSecret}`);
		console.log(`  Run history:    ${base}/automations/${DEMO_AUTOMATION}/runs`);
		console.log('Put both into a Service Webhook Secret credential in n8n. Ctrl+C stops.');
		return;
	}
	console.log(`Automation Service simulator on ${base}, automation "${DEMO_AUTOMATION}"`);
	let failures = 0;
	try {
		failures = await runExamples(webhookUrl, demoSecret);
		const history = (await fetchJson(`${base}/automations/${DEMO_AUTOMATION}/runs`)) as {
			runs: RunRecord[];
		};
		console.log(
			`\nRun history of "${DEMO_AUTOMATION}" (GET /automations/${DEMO_AUTOMATION}/runs): ${history.runs.length} runs`,
		);
		history.runs.forEach((run, index) => {
			console.log(`  #${index + 1} run ${run.runId}, received ${run.receivedAt}`);
			console.log(
				`     signature verified: HMAC-SHA256 over the received bytes, signed at ${run.signedAt}`,
			);
			console.log(`     message: ${short(run.message)}`);
			if (run.context !== undefined) console.log(`     context: ${short(run.context)}`);
		});
		if (history.runs.length === 0) failures++;
	} finally {
		await simulator.stop();
	}
	process.exitCode = failures > 0 ? 1 : 0;
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : error);
	process.exitCode = 1;
});
