/**
 * Items with odd values in `json.ctx`, chosen by each item's `odd` field. Values JSON can carry (a
 * 10 MB string, lone surrogates) go straight into Start's pinned data. For values it cannot carry
 * (a BigInt, a circular object, `undefined` values, a Date) or a binary-only item, as a Code node or
 * another node's output could give them, a test fixture node (not a stand-in for any n8n node) is
 * placed between Start and Trigger Automation; items without `odd` pass through it unchanged.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	INodeParameters,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { RunOptions } from '../../dev/engine';
import type { TriggerWorkflow } from './workflows';
import { NODE_NAME, triggerWorkflow } from './workflows';

export const ODD_NODE_TYPE = 'test.oddItems';
export const ODD_NODE_NAME = 'Odd Items';
export const DATE = new Date('2026-01-02T03:04:05.678Z');
export const HUGE_LENGTH = 10 * 1024 * 1024;

export type Odd =
	| 'bigint'
	| 'circular'
	| 'undefinedValues'
	| 'date'
	| 'huge'
	| 'binaryOnly'
	| 'nestedBigint'
	| 'loneSurrogate';

/** The `json.ctx` value for each kind (binaryOnly replaces the whole item). */
export function oddValue(odd: Odd): unknown {
	switch (odd) {
		case 'bigint':
			return 12345678901234567890n;
		case 'nestedBigint':
			return { orderId: 7, total: 12345678901234567890n };
		case 'circular': {
			const order: IDataObject = { orderId: 7 };
			order.self = order;
			return order;
		}
		case 'undefinedValues':
			return { kept: 1, dropped: undefined, list: [1, undefined, 3] };
		case 'date':
			return { when: DATE };
		case 'huge':
			return { blob: 'x'.repeat(HUGE_LENGTH) };
		case 'loneSurrogate':
			return { text: 'high \ud800 low \udc00 end' };
		case 'binaryOnly':
			return undefined;
	}
}

class OddItems implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Odd Items',
		name: ODD_NODE_TYPE,
		group: ['transform'],
		version: 1,
		description: 'Test only: items carrying values JSON cannot',
		defaults: { name: ODD_NODE_NAME },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [
			this.getInputData().map((item, index) => {
				const odd = item.json.odd as Odd | undefined;
				if (odd === 'binaryOnly') {
					return {
						json: {},
						binary: {
							data: {
								data: Buffer.from('%PDF-1.4 invoice').toString('base64'),
								mimeType: 'application/pdf',
								fileName: 'invoice.pdf',
							},
						},
						pairedItem: { item: index },
					};
				}
				const json: IDataObject = { ...item.json };
				if (odd) json.ctx = oddValue(odd) as IDataObject;
				return { json, pairedItem: { item: index } };
			}),
		];
	}
}

/** The kinds JSON carries exactly, so pinned data can hold them as n8n would. */
const JSON_KINDS: ReadonlySet<Odd> = new Set<Odd>(['huge', 'loneSurrogate']);

/** Start (odd values pinned) → Trigger Automation, or Start → Odd Items → Trigger Automation. */
export function oddWorkflow(spec: TriggerWorkflow): RunOptions {
	const items = spec.items ?? [{}];
	if (items.every(({ odd }) => odd === undefined || JSON_KINDS.has(odd as Odd))) {
		const pinned = items.map((item) =>
			item.odd ? { ...item, ctx: oddValue(item.odd as Odd) as IDataObject } : item,
		);
		return triggerWorkflow({ ...spec, items: pinned });
	}
	const options = triggerWorkflow(spec);
	const [start, trigger] = options.workflow.nodes;
	const odd = {
		id: 'odd',
		name: ODD_NODE_NAME,
		type: ODD_NODE_TYPE,
		typeVersion: 1,
		position: [100, 0] as [number, number],
		parameters: {} as INodeParameters,
	};
	return {
		...options,
		workflow: {
			nodes: [start, odd, { ...trigger, position: [300, 0] }],
			connections: {
				[start.name]: { main: [[{ node: ODD_NODE_NAME, type: 'main', index: 0 }]] },
				[ODD_NODE_NAME]: { main: [[{ node: NODE_NAME, type: 'main', index: 0 }]] },
			},
		},
		extraNodeTypes: { [ODD_NODE_TYPE]: new OddItems() },
	};
}
