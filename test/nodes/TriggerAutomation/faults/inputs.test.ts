/**
 * The bad-input half of the fault matrix (test/support/faultMatrix/): every case through n8n's
 * engine, with the affected item between two good ones, in each On Error mode.
 */
import '../../../support/capture';

import { afterAll, beforeAll, describe, it } from 'vitest';

import { CASES, INPUT_GROUPS } from '../../../support/faultMatrix';
import type { Harness } from '../../../support/matrixRunner';
import {
	MODES,
	expectCaseOutcome,
	expectCleanRun,
	runCase,
	startHarness,
	stopHarness,
} from '../../../support/matrixRunner';

let harness: Harness;
beforeAll(async () => {
	harness = await startHarness();
});
afterAll(async () => stopHarness(harness));

for (const c of CASES.filter((x) => INPUT_GROUPS.includes(x.group) && !x.custom)) {
	describe(`${c.group}: ${c.rule} [${c.id}]`, () => {
		for (const { mode, label } of MODES) {
			it(label, async () => {
				const result = await runCase(c, mode, harness);
				expectCleanRun(c, result);
				expectCaseOutcome(c, mode, result);
			});
		}
	});
}
