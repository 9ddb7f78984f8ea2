/**
 * The re-send policy's table (sending/resendPolicy.ts, RESENT) is the one home of what the node
 * sends again: the docs and the editor's help say it as it is there, and the policy does what each
 * row says for an answer of that kind.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { PACKAGE_DIR } from '../../dev/packageDir';
import { failureFromError } from '../../nodes/TriggerAutomation/answer/noAnswer';
import { failureFromAnswer } from '../../nodes/TriggerAutomation/answer/serviceAnswer';
import { LABELS, nodeProperties } from '../../nodes/TriggerAutomation/description';
import {
	RESENT,
	RESENT_HOW,
	isResent,
	resendDecision,
} from '../../nodes/TriggerAutomation/sending/resendPolicy';
import { ANSWERED_AT, ANSWERED_REQUEST } from '../support/failures';

const read = (file: string) => readFileSync(join(PACKAGE_DIR, file), 'utf8');

/** A markdown table's rows, as trimmed cells. */
function tableRows(markdown: string): string[][] {
	return markdown
		.split('\n')
		.filter((line) => line.startsWith('|') && !/^\|\s*-/.test(line))
		.map((line) =>
			line
				.slice(1, -1)
				.split('|')
				.map((cell) => cell.trim()),
		);
}

const answer = (statusCode: number, headers: Record<string, string> = {}) =>
	failureFromAnswer({ statusCode, headers, body: Buffer.alloc(0) }, ANSWERED_REQUEST, ANSWERED_AT)!;
const refused = failureFromError(
	Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }),
	ANSWERED_REQUEST,
);

describe("the re-send table is told once: the docs and the editor take it from the policy's", () => {
	it('docs/behind-a-proxy.md: a row per answer re-sent, saying what the policy does, and no other row says it re-sends', () => {
		const rows = tableRows(read('docs/behind-a-proxy.md'));
		for (const { answer: what, code } of RESENT) {
			const row = rows.find(([first]) => first === what);
			expect(row, what).toBeDefined();
			expect(row![1].startsWith(RESENT_HOW), row![1]).toBe(true);
			expect(row!.slice(2)).toEqual([`\`${code}\``, 'no']);
		}
		const resending = rows.filter(([, how]) => how?.includes('sends the item again'));
		expect(resending.map(([first]) => first)).toEqual(RESENT.map(({ answer: what }) => what));
	});

	it("docs/reference.md's row for Retries When Not Accepted and the editor's help name every kind re-sent", () => {
		const option = tableRows(read('docs/reference.md')).find(
			([first]) => first === `Options → ${LABELS.retries}`,
		);
		const help = (
			nodeProperties.find((p) => p.name === 'options')!.options as Array<{
				displayName: string;
				description?: string;
			}>
		).find((o) => o.displayName === LABELS.retries)!.description!;
		for (const { short } of RESENT) {
			expect(option?.[1]).toContain(short.replace('Retry-After', '`Retry-After`'));
			expect(help).toContain(short);
		}
	});
});

describe('the policy does what each row says', () => {
	const fresh = { resent: 0, spent: 0 };

	it.each([
		['429', answer(429)],
		['429 with Retry-After', answer(429, { 'retry-after': '1' })],
		['503 with Retry-After', answer(503, { 'retry-after': '1' })],
		['connection refused', refused],
	])('%s: sent again', (_, failure) => {
		expect(isResent(failure)).toBe(true);
		expect(resendDecision(failure, fresh, 5, false).resend).toBe(true);
	});

	it.each([
		['503 without Retry-After', answer(503)],
		['500', answer(500)],
		['502 with Retry-After', answer(502, { 'retry-after': '1' })],
		['403', answer(403)],
		['422', answer(422)],
	])('%s: never sent again', (_, failure) => {
		expect(isResent(failure)).toBe(false);
		expect(resendDecision(failure, fresh, 5, false)).toMatchObject({ resend: false, why: 'never' });
	});
});
