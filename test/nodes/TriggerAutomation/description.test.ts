import type { INodeType } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { loadPackage } from '../../../dev/engine';
import { NODE_TYPE } from '../../../dev/packageNames';
import { DEFAULTS } from '../../../nodes/TriggerAutomation/description';

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
