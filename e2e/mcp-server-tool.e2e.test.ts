/**
 * examples/mcp-server-tool.json in the real n8n 2.41.1: the workflow published (`n8n
 * publish:workflow`), its MCP Server Trigger serving Trigger Automation as a tool, called by the
 * official MCP TypeScript SDK client (the one in n8n's own tree, so no dependency of ours) over
 * Streamable HTTP with the example's bearer token, as an assistant or IDE would.
 */
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { APPS, N8nInstance, appDir } from '../dev/n8nApp';
import { AutomationServiceSimulator } from '../dev/simulator';
import type { WorkflowFile } from '../dev/exampleFiles';
import { CREDENTIAL_TYPE, credentialsOf, readExamples, workflowId } from '../dev/exampleFiles';

const ID = 'mcp-automation';
const SECRET = 'e2e_mcp_secret_3a9d1f';
const WRONG_SECRET = 'e2e_mcp_secret_not_this_one';
const TOKEN = 'e2e-mcp-bearer-token-7f2c';
const SIGNATURE = /v1=[0-9a-f]{64}|x-service-signature/i;

/** The parts of the SDK's client these tests use. */
interface McpClient {
	connect(transport: unknown): Promise<void>;
	listTools(): Promise<{
		tools: Array<{
			name: string;
			description?: string;
			inputSchema: { properties?: Record<string, { type?: string; description?: string }> };
		}>;
	}>;
	callTool(request: {
		name: string;
		arguments: Record<string, unknown>;
	}): Promise<{ content: Array<{ type: string; text?: string }>; isError?: boolean }>;
	close(): Promise<void>;
}

const app = APPS['n8n-2'];
// @modelcontextprotocol/sdk as n8n itself has it.
const sdk = createRequire(join(appDir(app), 'node_modules', 'n8n', 'package.json'));
const { Client } = sdk('@modelcontextprotocol/sdk/client/index.js') as {
	Client: new (info: { name: string; version: string }) => McpClient;
};
const { StreamableHTTPClientTransport } = sdk(
	'@modelcontextprotocol/sdk/client/streamableHttp.js',
) as {
	StreamableHTTPClientTransport: new (
		url: URL,
		options: { requestInit: { headers: Record<string, string> } },
	) => unknown;
};

describe(`${app.id}: examples/mcp-server-tool.json, called by an MCP client`, () => {
	const simulator = new AutomationServiceSimulator({ automations: [{ id: ID, secret: SECRET }] });
	const example = readExamples().find((e) => e.file === 'mcp-server-tool.json')!;
	const trigger = example.workflow.nodes.find((n) => n.type.endsWith('.mcpTrigger'))!;
	const tool = example.workflow.nodes.find((n) => n.type.endsWith('.triggerAutomationTool'))!;
	const path = (trigger.parameters as { path: string }).path;
	const wrong = { id: 'e2eMcpWrongCred1', name: 'MCP tool webhook with a wrong secret' };
	// The same workflow on its own path, its tool signing with a wrong secret.
	const wrongSecretCopy: WorkflowFile = {
		...example.workflow,
		id: workflowId('mcpWrongSecret'),
		name: `${example.workflow.name}, wrong secret`,
		nodes: example.workflow.nodes.map((node) =>
			node === trigger
				? {
						...node,
						webhookId: randomUUID(),
						parameters: { ...(node.parameters as object), path: `${path}-wrong-secret` },
					}
				: node === tool
					? { ...node, credentials: { [CREDENTIAL_TYPE]: wrong } }
					: node,
		),
	};
	let n8n: N8nInstance;
	const clients: McpClient[] = [];

	async function connect(serverPath: string): Promise<McpClient> {
		const client = new Client({ name: 'e2e-mcp-client', version: '1.0.0' });
		const transport = new StreamableHTTPClientTransport(
			new URL(`${n8n.baseUrl}/mcp/${serverPath}`),
			{ requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } },
		);
		await client.connect(transport);
		clients.push(client);
		return client;
	}

	/** What the client gets back from a call: the result's text, or the error it raised. */
	async function call(client: McpClient, args: Record<string, unknown>) {
		const { tools } = await client.listTools();
		try {
			const result = await client.callTool({ name: tools[0].name, arguments: args });
			const text = result.content.map((part) => part.text ?? '').join('\n');
			return { isError: result.isError === true, text };
		} catch (error) {
			return { isError: true, text: (error as Error).message };
		}
	}

	beforeAll(async () => {
		await simulator.start();
		n8n = new N8nInstance(app);
		n8n.installPackage();
		const data = { webhookUrl: simulator.webhookUrl(ID), signingSecret: SECRET };
		const bearer = (trigger.credentials as Record<string, { id: string; name: string }>)
			.httpBearerAuth;
		await n8n.import('credentials', [
			...credentialsOf(example.workflow, data),
			{ ...wrong, type: CREDENTIAL_TYPE, data: { ...data, signingSecret: WRONG_SECRET } },
			{ ...bearer, type: 'httpBearerAuth', data: { token: TOKEN } },
		]);
		await n8n.import('workflow', [
			{ ...example.workflow, id: workflowId(example.file) },
			wrongSecretCopy,
		]);
		for (const id of [workflowId(example.file), wrongSecretCopy.id!]) await n8n.activate(id);
		await n8n.start();
		// n8n activates published workflows just after its editor answers: until then, 404.
		for (let waited = 0; waited < 30_000; waited += 250) {
			const probe = await fetch(`${n8n.baseUrl}/mcp/${path}`, { method: 'POST' });
			if (probe.status !== 404) break;
			await new Promise((resolve) => setTimeout(resolve, 250));
		}
	});

	afterAll(async () => {
		await Promise.all(clients.map(async (client) => await client.close().catch(() => undefined)));
		await n8n?.stop();
		await simulator.stop();
		n8n?.dispose();
	});

	it('the endpoint refuses a client without the bearer token', async () => {
		const response = await fetch(`${n8n.baseUrl}/mcp/${path}`, {
			method: 'POST',
			headers: {
				'Content-Type': 'application/json',
				Accept: 'application/json, text/event-stream',
			},
			body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
		});
		expect(response.status).toBe(403);
		expect(await response.text()).toBe('Authorization data is wrong!');
	});

	it('the client lists Trigger Automation with its description and its two parameters', async () => {
		const { tools } = await (await connect(path)).listTools();
		expect(tools).toHaveLength(1);
		const [listed] = tools;
		expect(listed.description).toBe(
			(tool.parameters as { toolDescription: string }).toolDescription,
		);
		expect(listed.inputSchema.properties?.message).toMatchObject({
			type: 'string',
			description: 'The instruction for the automation, as one would type it in chat',
		});
		expect(listed.inputSchema.properties?.context).toMatchObject({
			description: 'Data the automation needs, as a JSON object',
		});
	});

	it("one call creates exactly one verified run with the client's message and context, and answers with its run id", async () => {
		const client = await connect(path);
		const [runsBefore, requestsBefore] = [simulator.runs(ID).length, simulator.requests];
		const args = {
			message: 'Restock tea TEA-01 for the Oslo shop and confirm the delivery date.',
			context: { sku: 'TEA-01', quantity: 40, shop: 'Oslo' },
		};
		const answer = await call(client, args);
		expect(answer.isError).toBe(false);
		// The simulator records a run only for a request whose signature it verified.
		expect(simulator.requests).toBe(requestsBefore + 1);
		const runs = simulator.runs(ID);
		expect(runs).toHaveLength(runsBefore + 1);
		expect({ message: runs[runsBefore].message, context: runs[runsBefore].context }).toEqual(args);
		expect(answer.text).toContain(runs[runsBefore].runId);
	});

	it('with a wrong secret the client gets an error naming the 403, with neither secret nor signature', async () => {
		const client = await connect(`${path}-wrong-secret`);
		const runsBefore = simulator.runs(ID).length;
		const answer = await call(client, { message: 'Never accepted', context: { try: 1 } });
		expect(answer.isError).toBe(true);
		expect(answer.text).toMatch(/rejected the signature \(403\)/);
		expect(simulator.runs(ID)).toHaveLength(runsBefore);
		for (const text of [answer.text, n8n.log]) {
			expect(text).not.toContain(SECRET);
			expect(text).not.toContain(WRONG_SECRET);
			expect(text).not.toMatch(SIGNATURE);
		}
	});
});
