/**
 * The bare n8n node, run in the same engine: the least an n8n node can do for this job. It signs
 * the same body bytes with bare node:crypto and sends them with n8n's `helpers.httpRequest`,
 * batched like Trigger Automation, so Trigger Automation minus this = the package's own cost.
 * It passes the execution's Stop signal with each request, as n8n does for every request made with
 * a credential (httpRequestWithAuthentication sets it whatever the node asks).
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

export const BARE_HTTP_TYPE = 'bench.bareHttp';

class BareHttpNode implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Bare HTTP',
		name: BARE_HTTP_TYPE,
		group: ['transform'],
		version: 1,
		description: 'Signs with node:crypto and sends with helpers.httpRequest',
		defaults: { name: 'Bare HTTP' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [
			{ displayName: 'URL', name: 'url', type: 'string', default: '' },
			{ displayName: 'Secret', name: 'secret', type: 'string', default: '' },
			{ displayName: 'Message', name: 'message', type: 'string', default: '' },
			{ displayName: 'Batch Size', name: 'batchSize', type: 'number', default: 1 },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = this.getInputData();
		const url = this.getNodeParameter('url', 0) as string;
		const secret = this.getNodeParameter('secret', 0) as string;
		const batchSize = this.getNodeParameter('batchSize', 0) as number;
		const message = this.getNodeParameter('message', 0) as string;
		const send = async (item: INodeExecutionData): Promise<IDataObject> => {
			const body = Buffer.from(JSON.stringify({ data: { message, context: item.json } }));
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
				abortSignal: this.getExecutionCancelSignal(),
			})) as { statusCode: number };
			return { statusCode: response.statusCode };
		};
		const results: INodeExecutionData[] = [];
		for (let start = 0; start < items.length; start += batchSize) {
			const answers = await Promise.all(items.slice(start, start + batchSize).map(send));
			answers.forEach((json, i) => results.push({ json, pairedItem: { item: start + i } }));
		}
		return [results];
	}
}

export const BARE_NODE_TYPES: Record<string, INodeType> = { [BARE_HTTP_TYPE]: new BareHttpNode() };
