/**
 * The main job (`npm start`): runs every example workflow through n8n's real engine with the built
 * node against the local simulator (offline), and prints what the automation received. With
 * `--url <webhook URL> --message <text>` it sends one trigger to a real automation instead (the
 * secret in AUTOMATION_SIGNING_SECRET, kept out of shell history and the process list).
 * `--serve` only starts the simulator and keeps it running, for trying the node in the n8n editor.
 * Flags and local checks: ./demoCli.js (dev/start.js applies them once before the build, as `npm
 * start` runs; here they run again, for `node .dev-dist/dev/demo.js` started by hand).
 */
import { randomBytes } from 'node:crypto';
import { get } from 'node:http';

import { parseWebhookUrl } from '../credentials/common/webhookUrl';
import type { DemoCommand, TriggerCommand } from './demoCli';
import { USAGE, UsageError, parseDemoArgs } from './demoCli';
import { sendOneTrigger, triggerBody } from './demoTrigger';
import type { Judged } from './demoExamples';
import { runExamples, summary } from './demoExamples';
import type { RunRecord } from './simulator';
import { AutomationServiceSimulator, DEV_SECRET, failureLines, failureOptions } from './simulator';
import { SimulatorLog } from './simulatorLog';

const DEMO_AUTOMATION = 'demo-automation';

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

async function triggerOnce(command: TriggerCommand): Promise<void> {
	// Every local check passed (./demoCli.js): from here on, the request goes out.
	console.log(`Sending one trigger to ${command.url}, body:`);
	console.log(`  ${triggerBody(command)}`);
	const result = await sendOneTrigger(command);
	if (!result.ok) {
		console.log(`✗ ${result.error ?? 'failed'}`);
		process.exitCode = 1;
		return;
	}
	console.log(
		`✓ status ${String(result.output.statusCode)}, response ${short(result.output.response, 160)}`,
	);
}

async function main(): Promise<void> {
	let command: DemoCommand;
	try {
		command = parseDemoArgs(process.argv.slice(2), process.env, parseWebhookUrl);
	} catch (error) {
		if (!(error instanceof UsageError)) throw error;
		console.error(`${error.message}\n\n${USAGE}`);
		process.exitCode = 2;
		return;
	}
	if (command.kind === 'help') {
		console.log(USAGE);
		return;
	}
	if (command.kind === 'trigger') {
		await triggerOnce(command);
		return;
	}

	const serve = command.kind === 'serve' ? command : undefined;
	const demoSecret = serve?.fixedSecret ? DEV_SECRET : `demo_${randomBytes(16).toString('hex')}`;
	// While serving, what it answers shows as it happens: each run, each refusal and its reason.
	const answers = new SimulatorLog((line) => console.log(line));
	const simulator = new AutomationServiceSimulator({
		automations: [{ id: DEMO_AUTOMATION, secret: demoSecret }],
		...failureOptions(serve ?? {}),
		...(serve
			? {
					onAnswered: (answer) => answers.answered(answer),
					onBusySpell: (spell) => answers.spell(spell),
				}
			: {}),
	});
	const base = await simulator.start(command.port);
	const webhookUrl = simulator.webhookUrl(DEMO_AUTOMATION);
	if (serve) {
		console.log(`Automation Service simulator on ${base}`);
		console.log(`  Webhook URL:    ${webhookUrl}`);
		console.log(`  Signing secret: ${demoSecret}`);
		console.log(`  Run history:    ${base}/automations/${DEMO_AUTOMATION}/runs`);
		for (const [label, text] of failureLines(serve))
			console.log(`  ${`${label}:`.padEnd(16)}${text}`);
		console.log(
			`Put both into a Service Webhook Secret credential in n8n${
				serve.fixedSecret ? ' (the secret stays the same at every start)' : ''
			}. Ctrl+C stops.`,
		);
		return;
	}
	console.log(`Automation Service simulator on ${base}, automation "${DEMO_AUTOMATION}"`);
	let judged: Judged[] = [];
	let runs = 0;
	try {
		judged = await runExamples({ webhookUrl, signingSecret: demoSecret }, (line) =>
			console.log(line),
		);
		const history = (await fetchJson(`${base}/automations/${DEMO_AUTOMATION}/runs`)) as {
			runs: RunRecord[];
		};
		runs = history.runs.length;
		console.log(
			`\nRun history of "${DEMO_AUTOMATION}" (GET /automations/${DEMO_AUTOMATION}/runs): ${runs} runs`,
		);
		history.runs.forEach((run, index) => {
			console.log(`  #${index + 1} run ${run.runId}, received ${run.receivedAt}`);
			console.log(
				`     signature verified: HMAC-SHA256 over the received bytes, signed at ${run.signedAt}`,
			);
			console.log(`     message: ${short(run.message)}`);
			if (run.context !== undefined) console.log(`     context: ${short(run.context)}`);
		});
	} finally {
		await simulator.stop();
	}
	const { line, unexpected } = summary(runs, judged);
	console.log(`\n${line}`);
	process.exitCode = unexpected > 0 ? 1 : 0;
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : error);
	process.exitCode = 1;
});
