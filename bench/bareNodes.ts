/**
 * Diagnostic node types, run in the same engine to split where the time goes:
 * - `bench.bareHttp`: the least an n8n node can do for this job — sign the same body bytes with
 *   bare node:crypto and send them with n8n's `helpers.httpRequest`, batched like the real node.
 *   Trigger Automation minus this = the package's own cost (body, signing, credential, parsing).
 * - `bench.passThrough`: returns its input; the engine's cost for a run of these items, no HTTP.
 */
import { createHmac } from 'node:crypto';
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { MESSAGE } from './workload';

export const BARE_HTTP_TYPE = 'bench.bareHttp';
export const PASS_THROUGH_TYPE = 'bench.passThrough';

function description(name: string): INodeTypeDescription {
	return {
		displayName: name,
		name,
		group: ['transform'],
		version: 1,
		description: 'Benchmark diagnostic node',
		defaults: { name },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [
			{ displayName: 'URL', name: 'url', type: 'string', default: '' },
			{ displayName: 'Secret', name: 'secret', type: 'string', default: '' },
			{ displayName: 'Batch Size', name: 'batchSize', type: 'number', default: 1 },
		],
	};
}

class BareHttpNode implements INodeType {
	description = description(BARE_HTTP_TYPE);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const url = this.getNodeParameter('url', 0) as string;
		const secret = this.getNodeParameter('secret', 0) as string;
		const batchSize = this.getNodeParameter('batchSize', 0) as number;
		const send = async (item: INodeExecutionData): Promise<IDataObject> => {
			const body = Buffer.from(JSON.stringify({ data: { message: MESSAGE, context: item.json } }));
			const t = Date.now();
			const v1 = createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');
			const response = (await this.helpers.httpRequest({
				method: 'POST',
				url,
				body,
				headers: { 'Content-Type': 'application/json', 'X-Service-Signature': `t=${t},v1=${v1}` },
				encoding: 'arraybuffer',
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
				disableFollowRedirect: true,
			})) as { statusCode: number };
			return { statusCode: response.statusCode };
		};
		const results: INodeExecutionData[] = [];
		for (let start = 0; start < items.length; start += batchSize) {
			const batch = items.slice(start, start + batchSize);
			const answers = await Promise.all(batch.map(send));
			answers.forEach((json, offset) =>
				results.push({ json, pairedItem: { item: start + offset } }),
			);
		}
		return [results];
	}
}

class PassThroughNode implements INodeType {
	description = description(PASS_THROUGH_TYPE);

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}

export const DIAGNOSTIC_NODE_TYPES: Record<string, INodeType> = {
	[BARE_HTTP_TYPE]: new BareHttpNode(),
	[PASS_THROUGH_TYPE]: new PassThroughNode(),
};
