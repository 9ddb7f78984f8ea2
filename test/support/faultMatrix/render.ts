/**
 * The matrix's summary in docs/testing.md, The fault matrix: per group, how many cases and the
 * failure codes they end in, generated from the cases (test/nodes/TriggerAutomation/faults/
 * matrix.test.ts keeps the two in sync). The cases themselves are read in their files.
 */
import { CASES } from './index';
import type { MatrixCase } from './types';

/** Where the summary goes in docs/testing.md. */
export const MARKERS = ['<!-- fault-matrix -->', '<!-- /fault-matrix -->'] as const;

/** The summary table, between the markers. */
export function renderFaultMatrix(cases: MatrixCase[] = CASES): string {
	const groups = [...new Set(cases.map((c) => c.group))];
	const rows = groups.map((group) => {
		const of = cases.filter((c) => c.group === group);
		const codes = [
			...new Set(of.map((c) => (c.expect.kind === 'error' ? c.expect.code : undefined))),
		].filter((code) => code !== undefined);
		const sent = of.filter((c) => c.expect.kind === 'sent').length;
		const said = [...codes.map((code) => `\`${code}\``), ...(sent > 0 ? [`sent (${sent})`] : [])];
		return `| ${group} | ${of.length} | ${said.join(', ')} |`;
	});
	return [
		MARKERS[0],
		'',
		'| Group | Cases | Ends in |',
		'| --- | --- | --- |',
		...rows,
		`| All | ${cases.length} | |`,
		'',
		MARKERS[1],
	].join('\n');
}
