/**
 * `npm run dev`: the pinned real n8n (e2e/.apps, installed by `bash e2e/install.sh`) with the freshly
 * built package installed as a community package, the simulator, a credential for every example
 * pointing at it, and the example workflows imported. Running it again while one runs rebuilds,
 * stops the running one and starts anew with the same database.
 *
 *   npm run dev                 n8n 2.x on Node 24, editor on http://127.0.0.1:5678
 *   npm run dev -- --n8n 1      n8n 1.x on Node 20
 *   npm run dev -- --port 5700  another editor port (the simulator takes the next one)
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { N8nApp } from './n8nApp';
import { APPS, N8nInstance, OWNER, PACKAGE_NAME, setUpOwner } from './n8nApp';
import { PACKAGE_DIR } from './packageDir';
import { AutomationServiceSimulator } from './simulator';
import { credentialsOf, readExamples, workflowId } from './exampleFiles';

const AUTOMATION = 'dev-automation';
// The simulator's own secret: it stands for a real one only on this machine.
const SECRET = 'dev_simulator_signing_secret';

function option(name: string, fallback: string): string {
	const index = process.argv.indexOf(`--${name}`);
	return index === -1 ? fallback : (process.argv[index + 1] ?? fallback);
}

/** Stops the dev n8n a previous `npm run dev` left running (its pid is kept beside its data). */
async function stopPrevious(pidFile: string): Promise<void> {
	if (!existsSync(pidFile)) return;
	const pid = Number(readFileSync(pidFile, 'utf8'));
	rmSync(pidFile);
	try {
		process.kill(pid, 'SIGTERM');
	} catch {
		return; // Not running any more.
	}
	console.log(`Stopping the running dev n8n (pid ${pid}) …`);
	for (let waited = 0; waited < 30_000; waited += 250) {
		try {
			process.kill(pid, 0);
		} catch {
			return;
		}
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}

async function main(): Promise<void> {
	const app: N8nApp = APPS[option('n8n', '2') === '1' ? 'n8n-1' : 'n8n-2'];
	const port = Number(option('port', '5678'));
	const dataDir = join(PACKAGE_DIR, '.dev-n8n', app.id);
	const pidFile = join(PACKAGE_DIR, '.dev-n8n', 'dev.pid');
	mkdirSync(dataDir, { recursive: true });
	await stopPrevious(pidFile);
	writeFileSync(pidFile, String(process.pid));

	const simulator = new AutomationServiceSimulator({
		automations: [{ id: AUTOMATION, secret: SECRET }],
	});
	await simulator.start(port + 1);
	const n8n = new N8nInstance(app, {
		userFolder: dataDir,
		port,
		onLog: (line) => console.log(`  n8n │ ${line}`),
	});
	const fresh = !existsSync(join(dataDir, '.n8n', 'database.sqlite'));
	n8n.installPackage();
	const data = { webhookUrl: simulator.webhookUrl(AUTOMATION), signingSecret: SECRET };
	const examples = readExamples();
	// Imported every time: the credentials follow the simulator's port, the examples the repo.
	await n8n.import(
		'credentials',
		examples.flatMap(({ workflow }) => credentialsOf(workflow, data)),
	);
	await n8n.import(
		'workflow',
		examples.map(({ file, workflow }) => ({ ...workflow, id: workflowId(file) })),
	);
	const stop = async () => {
		await n8n.stop();
		await simulator.stop();
		if (existsSync(pidFile) && readFileSync(pidFile, 'utf8') === String(process.pid))
			rmSync(pidFile);
		process.exit(0);
	};
	process.once('SIGINT', () => void stop());
	process.once('SIGTERM', () => void stop());
	await n8n.start();
	if (fresh) await setUpOwner(n8n);

	console.log(`
n8n ${n8n.version} (${app.id}) with ${PACKAGE_NAME} from this checkout
  Editor:     ${n8n.baseUrl}
  Sign in:    ${OWNER.email} / ${OWNER.password}
  Workflows:  ${examples.map((e) => e.workflow.name).join('; ')}
  Simulator:  ${simulator.webhookUrl(AUTOMATION)} (run history: ${simulator.baseUrl}/automations/${AUTOMATION}/runs)
  Data:       ${dataDir}
After a change: npm run dev (rebuilds, restarts this one). Ctrl+C stops.`);
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : error);
	process.exit(1);
});
