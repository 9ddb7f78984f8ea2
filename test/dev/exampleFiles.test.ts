/**
 * Workflow ids for n8n's CLI import: 16 letters and digits, as n8n wants for ids it did not make,
 * and readable where they show (the editor's address bar, `n8n execute --id=…`): never a file name
 * cut short.
 */
import { describe, expect, it } from 'vitest';

import { EXAMPLE_IDS, readExamples, workflowId } from '../../dev/exampleFiles';

const N8N_ID = /^[A-Za-z0-9]{16}$/;

describe('workflow ids', () => {
	it('every file in examples/ has its own readable id of 16 letters and digits', () => {
		const ids = readExamples().map(({ file }) => workflowId(file));
		expect(ids.every((id) => N8N_ID.test(id))).toBe(true);
		expect(new Set(ids).size).toBe(ids.length);
		expect(workflowId('order-to-automation.json')).toBe('exampleOrderFlow');
		expect(Object.keys(EXAMPLE_IDS).sort()).toEqual(readExamples().map(({ file }) => file));
	});

	it('a label of up to 16 letters and digits is kept whole, padded with zeros', () => {
		expect(workflowId('continueOnFail')).toBe('continueOnFail00');
		expect(workflowId('abcdefghijklmnop')).toBe('abcdefghijklmnop');
	});

	it.each(['compatWrongSecret', 'wrong-secret', ''])(
		'%j is refused rather than cut or changed',
		(label) => {
			expect(() => workflowId(label)).toThrow(/1 to 16 letters and digits/);
		},
	);

	it('an example file without an id is named, with where to add it', () => {
		expect(() => workflowId('new-example.json')).toThrow(
			'examples/new-example.json has no workflow id: add one to EXAMPLE_IDS',
		);
	});
});
