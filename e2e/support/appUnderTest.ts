/**
 * One suite's n8n app with this package installed: what the suite imports, its workflows
 * activated, n8n started and its owner's REST API; and given back (stopped, its user folder
 * removed) in `stop` only, whatever part of `start` was reached.
 */
import type { N8nApp } from '../../dev/n8nApp';
import { N8nInstance, setUpOwner } from '../../dev/n8nApp';
import { Rest } from './rest';

/** What a suite puts into n8n before it starts. */
export interface AppContents {
	credentials?: object[];
	workflows?: object[];
	/** Workflows activated (their production webhooks listen) once n8n starts. */
	active?: string[];
}

export class AppUnderTest {
	private instance: N8nInstance | undefined;

	/** Installs the package into a fresh `app`, imports `contents`, starts n8n as its owner. */
	async start(app: N8nApp, contents: AppContents): Promise<{ n8n: N8nInstance; rest: Rest }> {
		const n8n = (this.instance = new N8nInstance(app));
		n8n.installPackage();
		if (contents.credentials) await n8n.import('credentials', contents.credentials);
		if (contents.workflows) await n8n.import('workflow', contents.workflows);
		for (const id of contents.active ?? []) await n8n.activate(id);
		await n8n.start();
		return { n8n, rest: new Rest(n8n, await setUpOwner(n8n)) };
	}

	async stop(): Promise<void> {
		await this.instance?.stop();
		this.instance?.dispose();
		this.instance = undefined;
	}
}
