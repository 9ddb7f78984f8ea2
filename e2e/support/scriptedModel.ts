/**
 * A chat model on 127.0.0.1 that speaks OpenAI's chat completions API with a fixed script, for n8n's
 * real AI Agent and OpenAI Chat Model nodes (no model can run here). Asked first, it calls the one
 * tool it is offered with the given arguments; once the tool's answer is in the conversation, it
 * replies with a sentence quoting that answer.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

interface ToolSpec {
	type: 'function';
	function: {
		name: string;
		description?: string;
		parameters?: { properties?: Record<string, { type?: string }> };
	};
}

interface ChatRequest {
	model: string;
	stream?: boolean;
	tools?: ToolSpec[];
	messages: Array<{ role: string; content?: unknown }>;
}

export class ScriptedChatModel {
	private server?: Server;
	baseUrl = '';
	readonly requests: ChatRequest[] = [];

	/** `toolArguments`: what the model passes to the tool, by parameter name. */
	constructor(private readonly toolArguments: Record<string, unknown>) {}

	async start(): Promise<string> {
		this.server = createServer((req, res) => void this.handle(req, res));
		await new Promise<void>((ready) => this.server!.listen(0, '127.0.0.1', ready));
		this.baseUrl = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
		return this.baseUrl;
	}

	async stop(): Promise<void> {
		const server = this.server;
		if (!server) return;
		server.closeAllConnections();
		await new Promise<void>((done) => server.close(() => done()));
	}

	private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		if (req.method === 'GET' && req.url?.endsWith('/models')) {
			return json(res, {
				object: 'list',
				data: [{ id: 'gpt-4o-mini', object: 'model', owned_by: 'e2e' }],
			});
		}
		if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
			return json(res, { error: { message: `No ${req.method} ${req.url} here` } }, 404);
		}
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		const request = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequest;
		this.requests.push(request);
		const toolAnswer = request.messages.find((m) => m.role === 'tool');
		const tool = request.tools?.[0];
		const message =
			toolAnswer || !tool
				? { role: 'assistant', content: `The automation answered: ${String(toolAnswer?.content)}` }
				: {
						role: 'assistant',
						content: null,
						tool_calls: [
							{
								id: 'call_e2e_1',
								type: 'function',
								function: {
									name: tool.function.name,
									arguments: JSON.stringify(this.argumentsFor(tool)),
								},
							},
						],
					};
		const finish = 'tool_calls' in message ? 'tool_calls' : 'stop';
		if (request.stream) return stream(res, request.model, message, finish);
		return json(res, {
			id: 'chatcmpl-e2e',
			object: 'chat.completion',
			created: Math.floor(Date.now() / 1000),
			model: request.model,
			choices: [{ index: 0, message, finish_reason: finish }],
			usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
		});
	}

	/** The scripted arguments, as text where the tool's schema asks for text. */
	private argumentsFor(tool: ToolSpec): Record<string, unknown> {
		const properties = tool.function.parameters?.properties ?? {};
		return Object.fromEntries(
			Object.entries(this.toolArguments).map(([name, value]) => [
				name,
				properties[name]?.type === 'string' && typeof value !== 'string'
					? JSON.stringify(value)
					: value,
			]),
		);
	}
}

function json(res: ServerResponse, body: unknown, status = 200): void {
	res.writeHead(status, { 'Content-Type': 'application/json' });
	res.end(JSON.stringify(body));
}

function stream(
	res: ServerResponse,
	model: string,
	message: Record<string, unknown>,
	finish: string,
): void {
	res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
	const base = {
		id: 'chatcmpl-e2e',
		object: 'chat.completion.chunk',
		created: Math.floor(Date.now() / 1000),
		model,
	};
	const toolCalls = (message.tool_calls as Array<Record<string, unknown>> | undefined)?.map(
		(call, index) => ({
			index,
			...call,
		}),
	);
	const delta = toolCalls
		? { role: 'assistant', tool_calls: toolCalls }
		: { role: 'assistant', content: message.content };
	res.write(
		`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`,
	);
	res.write(
		`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: {}, finish_reason: finish }] })}\n\n`,
	);
	res.end('data: [DONE]\n\n');
}
