import { describe, expect, it } from 'vitest';

import {
	LABELS,
	SENDING_MODES,
	nodeProperties,
} from '../../../nodes/TriggerAutomation/description';
import { MAX_IN_FLIGHT, MAX_RETRIES, MAX_WAIT_MS } from '../../../nodes/TriggerAutomation/limits';

const option = (label: string) =>
	(
		nodeProperties.find((p) => p.name === 'options')!.options as Array<{
			displayName: string;
			description?: string;
			typeOptions?: { maxValue?: number };
		}>
	).find((o) => o.displayName === label)!;

describe("the editor's help names the limits the execution keeps", () => {
	it('Retries When Not Accepted: the most it takes, and the longest wait, with no maximum in the field that would cut a typed number', () => {
		const retries = option(LABELS.retries);
		expect(retries.description).toContain(`up to ${MAX_RETRIES}`);
		expect(retries.description).toContain(`over ${MAX_WAIT_MS / 1000} s fails the item at once`);
		expect(retries.typeOptions?.maxValue).toBeUndefined();
	});

	it('Adaptive: the most requests in flight at once', () => {
		expect(SENDING_MODES.adaptive.description).toContain(`up to ${MAX_IN_FLIGHT} requests at once`);
	});
});
