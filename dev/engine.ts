/**
 * Runs workflows that contain this package's node through n8n-core's real execution engine
 * (`WorkflowExecute`), with the package loaded by n8n-core's own `PackageDirectoryLoader` from
 * package.json (so from the built `dist/`), next to n8n's own nodes from n8n-nodes-base (Manual
 * Trigger, Schedule Trigger, Edit Fields; ./baseNodes.ts). Only the part of an n8n instance that
 * cannot run here is stood in for: a credentials helper that holds credential data in memory and
 * calls the credential's `authenticate` exactly as n8n's CredentialsHelper does.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// n8n-core writes <N8N_USER_FOLDER>/.n8n/config on first use: keep it out of $HOME.
process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'n8n-engine-'));
process.env.N8N_ENCRYPTION_KEY ??= 'engine-harness-key';
process.env.N8N_LOG_LEVEL ??= 'silent';

import { ExecutionLifecycleHooks, PackageDirectoryLoader, WorkflowExecute } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
	INodeType,
	INodeTypes,
	IPinData,
	IRun,
	IRunExecutionData,
	IVersionedNodeType,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { ICredentialsHelper, NodeHelpers, UnexpectedError, Workflow } from 'n8n-workflow';

import { loadBaseNodes } from './baseNodes';
import { PACKAGE_DIR } from './packageDir';

export { PACKAGE_DIR };
export interface LoadedPackage {
	packageName: string;
	nodeTypes: Record<string, INodeType | IVersionedNodeType>;
	credentialTypes: Record<string, ICredentialType>;
}

let loaded: Promise<LoadedPackage> | undefined;

/** The package as n8n loads it: package.json `n8n.nodes` / `n8n.credentials` → dist classes. */
export function loadPackage(dir: string = PACKAGE_DIR): Promise<LoadedPackage> {
	loaded ??= (async () => {
		const loader = new PackageDirectoryLoader(dir);
		await loader.loadAll();
		const nodeTypes: LoadedPackage['nodeTypes'] = {};
		for (const [name, { type }] of Object.entries(loader.nodeTypes)) {
			nodeTypes[`${loader.packageName}.${name}`] = type;
		}
		const credentialTypes: LoadedPackage['credentialTypes'] = {};
		for (const [name, { type }] of Object.entries(loader.credentialTypes)) {
			credentialTypes[name] = type;
		}
		return { packageName: loader.packageName, nodeTypes, credentialTypes };
	})();
	return loaded;
}

class NodeTypeRegistry implements INodeTypes {
	constructor(private readonly types: Record<string, INodeType | IVersionedNodeType>) {}

	getByName(nodeType: string) {
		const type = this.types[nodeType];
		if (!type) throw new UnexpectedError(`Unknown node type: ${nodeType}`);
		return type;
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.getByName(nodeType), version);
	}

	getKnownTypes() {
		return Object.fromEntries(
			Object.keys(this.types).map((name) => [name, { className: '', sourcePath: '' }]),
		);
	}
}

/**
 * Credential data in memory. `authenticate` does what n8n's CredentialsHelper
 * (packages/cli/src/credentials-helper.ts) does for a credential whose `authenticate` is a function:
 * it calls it with the decrypted data and the very request options object n8n-core handed over.
 */
export class MemoryCredentialsHelper extends ICredentialsHelper {
	authenticateCalls = 0;

	constructor(
		private readonly credentialTypes: Record<string, ICredentialType>,
		private readonly data: Record<string, ICredentialDataDecryptedObject>,
	) {
		super();
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		this.authenticateCalls++;
		const type = this.credentialTypes[typeName];
		if (typeof type?.authenticate === 'function') {
			return await type.authenticate(credentials, requestOptions);
		}
		return requestOptions;
	}

	async preAuthentication() {
		return undefined;
	}

	async runPreAuthentication() {
		return undefined;
	}

	async getCredentials(): Promise<never> {
		throw new UnexpectedError('not available in the engine harness');
	}

	async getDecrypted(_additionalData: unknown, _nodeCredentials: unknown, type: string) {
		if (!(type in this.data)) throw new UnexpectedError(`No credential data for "${type}"`);
		return structuredClone(this.data[type]);
	}

	async updateCredentials() {}

	async updateCredentialsOauthTokenData() {}

	getCredentialsProperties(type: string) {
		return this.credentialTypes[type]?.properties ?? [];
	}
}

export interface WorkflowDefinition {
	nodes: INode[];
	connections: Workflow['connectionsBySourceNode'];
}

export interface RunOptions {
	workflow: WorkflowDefinition;
	credentials: Record<string, ICredentialDataDecryptedObject>;
	/** The node the run starts from; default: the first node. */
	startNode?: string;
	/** Pinned data by node name, as n8n's manual run gets it: those nodes output it instead of running. */
	pinData?: IPinData;
	/** Extra node types (e.g. test-only nodes), by full type name. */
	extraNodeTypes?: Record<string, INodeType>;
}

export interface StartedRun {
	promise: Promise<IRun> & { cancel(): void };
	credentialsHelper: MemoryCredentialsHelper;
}

let executions = 0;

/** The workflow, its credentials and what n8n hands the engine for one execution. */
async function prepareExecution(options: RunOptions, mode: 'manual' | 'retry') {
	const [pkg, baseNodes] = await Promise.all([loadPackage(), loadBaseNodes(PACKAGE_DIR)]);
	const nodeTypes = new NodeTypeRegistry({
		...baseNodes,
		...pkg.nodeTypes,
		...options.extraNodeTypes,
	});
	const credentialsHelper = new MemoryCredentialsHelper(pkg.credentialTypes, options.credentials);
	const { nodes, connections } = options.workflow;
	const { pinData } = options;
	const settings = { executionOrder: 'v1' as const };
	const workflow = new Workflow({
		id: 'wf',
		name: 'test',
		nodes,
		connections,
		nodeTypes,
		active: false,
		settings,
		pinData,
	});
	const executionId = `exec-${++executions}`;
	const hooks = new ExecutionLifecycleHooks(mode, executionId, {
		id: 'wf',
		name: 'test',
		nodes,
		connections,
		active: false,
		settings,
		createdAt: new Date(),
		updatedAt: new Date(),
	} as never);
	const additionalData = {
		credentialsHelper,
		hooks,
		executionId,
		currentNodeExecutionIndex: 0,
		restApiUrl: 'http://127.0.0.1:5678/rest',
		instanceBaseUrl: 'http://127.0.0.1:5678/',
		formWaitingBaseUrl: 'http://127.0.0.1:5678/form-waiting',
		webhookBaseUrl: 'http://127.0.0.1:5678/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1:5678/webhook-test',
		variables: {},
		userId: 'engine-user',
		executeWorkflow: async () => {
			throw new UnexpectedError('sub-workflows are not available in the engine harness');
		},
		getRunExecutionData: async () => undefined,
		logAiEvent: () => {},
		setExecutionStatus: () => {},
		sendDataToUI: () => {},
	} as unknown as IWorkflowExecuteAdditionalData;
	return { workflow, additionalData, credentialsHelper };
}

/** Starts a workflow in the real engine; `promise.cancel()` stops it as n8n's Stop button does. */
export async function startWorkflow(options: RunOptions): Promise<StartedRun> {
	const { workflow, additionalData, credentialsHelper } = await prepareExecution(options, 'manual');
	const { nodes } = options.workflow;
	const { pinData } = options;
	const startNode = workflow.getNode(options.startNode ?? nodes[0].name) ?? undefined;
	// As n8n's ManualExecutionService starts a full manual run.
	const promise = new WorkflowExecute(additionalData, 'manual').run({
		workflow,
		startNode,
		pinData,
	});
	return { promise: promise as StartedRun['promise'], credentialsHelper };
}

export async function runWorkflow(options: RunOptions): Promise<IRun> {
	return await (
		await startWorkflow(options)
	).promise;
}

/**
 * n8n's Retry of a failed execution, as n8n's ExecutionService.retry and WorkflowRunner do it: the
 * execution's data as saved (a JSON copy, contexts of nodes included), without its error and, when
 * the last node executed failed, without that node's last pass; the engine then runs on from the
 * saved stack. `options.workflow` is the workflow the Retry uses: the one of the failed execution
 * ("Retry with original workflow") or one changed since ("with currently saved workflow").
 */
export async function retryExecution(failed: IRun, options: RunOptions): Promise<IRun> {
	const { workflow, additionalData } = await prepareExecution(options, 'retry');
	const data = JSON.parse(JSON.stringify(failed.data)) as IRunExecutionData;
	const { lastNodeExecuted } = data.resultData;
	if (lastNodeExecuted) {
		delete data.resultData.error;
		const passes = data.resultData.runData[lastNodeExecuted] ?? [];
		if (passes.at(-1)?.error !== undefined) passes.pop();
	}
	// The nodes waiting on the stack are the Retry's workflow's ("with currently saved workflow").
	for (const waiting of data.executionData?.nodeExecutionStack ?? []) {
		const node = workflow.getNode(waiting.node.name);
		if (!node) throw new UnexpectedError(`Could not find the node "${waiting.node.name}"`);
		waiting.node = node;
	}
	return await new WorkflowExecute(additionalData, 'retry', data).processRunExecutionData(workflow);
}

/** Items on output `output` of a node's `runIndex`-th run (main[1] is the error output). */
export function outputOf(
	run: IRun,
	nodeName: string,
	output = 0,
	runIndex = 0,
): INodeExecutionData[] {
	return run.data.resultData.runData[nodeName]?.[runIndex]?.data?.main?.[output] ?? [];
}

export function errorOf(run: IRun, nodeName: string, runIndex = 0) {
	return run.data.resultData.runData[nodeName]?.[runIndex]?.error;
}
