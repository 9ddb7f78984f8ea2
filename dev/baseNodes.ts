/**
 * n8n's own nodes that the harness runs around Trigger Automation, loaded from n8n-nodes-base
 * (a devDependency, the same version n8n ships) by n8n-core's loader, the way n8n loads them.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

import { PackageDirectoryLoader } from 'n8n-core';
import type {
	IDataObject,
	INode,
	INodeExecutionData,
	INodeType,
	IVersionedNodeType,
	KnownNodesAndCredentials,
} from 'n8n-workflow';

/**
 * The n8n-nodes-base nodes the examples, tests and benchmarks use: Manual Trigger, Schedule Trigger,
 * Edit Fields, Split Out, Loop Over Items, HTTP Request, Crypto, Switch and Sticky Note. Each class
 * loads on first use.
 */
export const BASE_NODE_NAMES = [
	'manualTrigger',
	'scheduleTrigger',
	'set',
	'splitOut',
	'splitInBatches',
	'httpRequest',
	'crypto',
	'switch',
	'stickyNote',
] as const;
export const BASE_PACKAGE = 'n8n-nodes-base';
export const MANUAL_TRIGGER_TYPE = `${BASE_PACKAGE}.manualTrigger`;

/**
 * n8n loads n8n-nodes-base lazily (LazyPackageDirectoryLoader): it reads the package's index of
 * node classes (dist/known/nodes.json) and loads a node's class on first use (`getNode`). This
 * does the same, but skips dist/types/nodes.json, the 8.7 MB of descriptions only the editor needs
 * (about 250 ms to parse per test file); loading all ~450 nodes eagerly takes about 4 s.
 */
class BaseNodesLoader extends PackageDirectoryLoader {
	async loadAll(): Promise<void> {
		this.known.nodes =
			await this.readJSON<KnownNodesAndCredentials['nodes']>('dist/known/nodes.json');
		this.isLazyLoaded = true;
	}
}

let loaded: Promise<Record<string, INodeType | IVersionedNodeType>> | undefined;

/** The nodes by full type name (`n8n-nodes-base.set` …), loaded once per process. */
export function loadBaseNodes(
	packageDir: string,
): Promise<Record<string, INodeType | IVersionedNodeType>> {
	loaded ??= (async () => {
		// Resolved from this package, as Node resolves it, so its n8n-workflow is ours too.
		const manifest = createRequire(join(packageDir, 'package.json')).resolve(
			`${BASE_PACKAGE}/package.json`,
		);
		const loader = new BaseNodesLoader(dirname(manifest));
		await loader.loadAll();
		return Object.fromEntries(
			BASE_NODE_NAMES.map((name) => [`${BASE_PACKAGE}.${name}`, loader.getNode(name).type]),
		);
	})();
	return loaded;
}

/** A Manual Trigger node; on its own it emits one empty item, as the Execute Workflow button does. */
export function manualTriggerNode(name: string, id = 'start'): INode {
	return {
		id,
		name,
		type: MANUAL_TRIGGER_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
}

/**
 * Items as pinned data for a node (RunOptions.pinData): the node outputs them instead of running,
 * as in n8n. n8n keeps pinned data as JSON, so they are copied through JSON.
 */
export function pinnedItems(items: IDataObject[]): INodeExecutionData[] {
	return (JSON.parse(JSON.stringify(items)) as IDataObject[]).map((json) => ({ json }));
}
