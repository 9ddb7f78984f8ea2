/** All cases of the fault and bad-input matrix, group by group. */
import { messageCases } from './message';
import { contextJsonCases } from './contextJson';
import { contextFieldsCases } from './contextFields';
import { credentialCases } from './credential';
import { optionsCases } from './options';
import { networkCases } from './network';
import { answersCases } from './answers';
import type { MatrixCase } from './types';

export * from './shared';
export * from './types';

export const CASES: MatrixCase[] = [
	...messageCases,
	...contextJsonCases,
	...contextFieldsCases,
	...credentialCases,
	...optionsCases,
	...networkCases,
	...answersCases,
];
