import type { INodeParameters, INodeProperties, INodeType } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { loadPackage } from '../../../dev/engine';
import { NODE_TYPE } from '../../../dev/packageNames';
import { DEFAULTS, RUNS_NOTICE } from '../../../nodes/TriggerAutomation/description';

describe('option defaults: what the editor shows is what the node uses', () => {
	it('DEFAULTS are the fields the editor shows: Timeout 30000, Items per Batch 50, Batch Interval 1000, Retries 5, Sending Adaptive', async () => {
		const { nodeTypes } = await loadPackage();
		const node = nodeTypes[NODE_TYPE] as INodeType;
		const options = node.description.properties.find((p) => p.name === 'options')!.options!;
		const byName = (name: string) => options.find((o) => 'name' in o && o.name === name)!;
		expect((byName('timeout') as { default: number }).default).toBe(30000);
		const batch = (
			byName('batching') as { options: Array<{ values: Array<{ name: string; default: number }> }> }
		).options[0].values;
		expect(batch.find((v) => v.name === 'batchSize')!.default).toBe(50);
		expect(batch.find((v) => v.name === 'batchInterval')!.default).toBe(1000);
		expect((byName('retries') as { default: number }).default).toBe(DEFAULTS.retries);
		expect((byName('sending') as { default: string }).default).toBe(DEFAULTS.sending);
		expect(DEFAULTS).toEqual({
			timeoutMs: 30000,
			batchSize: 50,
			batchIntervalMs: 1000,
			retries: 5,
			sending: 'adaptive',
		});
	});
});

describe('the notice at the top of the panel: each run starts automation runs, pinning avoids more', () => {
	it('the first field the panel shows is a notice saying that each run starts runs, and how to work on later nodes without starting more (pin its output)', async () => {
		const { nodeTypes } = await loadPackage();
		const { properties } = (nodeTypes[NODE_TYPE] as INodeType).description;
		const [first] = properties.filter((property) => property.type !== 'hidden');
		expect(first.type).toBe('notice');
		expect(first.displayName).toMatch(/^Each run of this node starts one automation run per item/);
		expect(first.displayName).toMatch(/execute this node once, then pin its output \(Pin data/);
	});

	it('n8n saves no value for the notice: a saved node holds the same parameters without it', async () => {
		const { nodeTypes } = await loadPackage();
		const { description } = nodeTypes[NODE_TYPE] as INodeType;
		const save = (properties: INodeProperties[], parameters: INodeParameters) =>
			NodeHelpers.getNodeParameters(
				properties,
				parameters,
				false,
				false,
				{ typeVersion: 1 },
				description,
			);
		const parameters = { message: 'Go', options: { retries: 30 } };
		const saved = save(description.properties, parameters);
		expect(saved).not.toHaveProperty(RUNS_NOTICE.name);
		expect(saved).toEqual(
			save(
				description.properties.filter((p) => p.name !== RUNS_NOTICE.name),
				parameters,
			),
		);
	});
});
