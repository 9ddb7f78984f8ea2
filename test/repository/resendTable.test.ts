/**
 * The re-send policy (sending/resendPolicy.ts: RESENT, resentHow, RESEND_POLICY) is the one source
 * of what the node sends again, after how long, when it costs a retry and when it gives up: the
 * editor's help, reference.md and behind-a-proxy.md say it in its words, no other page or comment
 * retells it, and the policy does what each row says for an answer of that kind.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { PACKAGE_DIR } from '../../dev/packageDir';
import { failureFromError } from '../../nodes/TriggerAutomation/answer/noAnswer';
import { failureFromAnswer } from '../../nodes/TriggerAutomation/answer/serviceAnswer';
import { LABELS, nodeProperties } from '../../nodes/TriggerAutomation/description';
import { RESEND_POLICY, plain, resentHow } from '../../nodes/TriggerAutomation/resendWords';
import {
	RESENT,
	isResent,
	resendDecision,
} from '../../nodes/TriggerAutomation/sending/resendPolicy';
import { section } from '../support/markdown';
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
			expect(row![1].startsWith(resentHow(RESENT.find((r) => r.answer === what)!)), row![1]).toBe(
				true,
			);
			expect(row!.slice(2)).toEqual([`\`${code}\``, 'no']);
		}
		const resending = rows.filter(([, how]) => how?.includes('sends the item again'));
		expect(resending.map(([first]) => first)).toEqual(RESENT.map(({ answer: what }) => what));
	});

	it("docs/behind-a-proxy.md: the wait beyond which the node gives up is the policy's", () => {
		const over = tableRows(read('docs/behind-a-proxy.md')).find(([first]) =>
			first.includes('over 60 s'),
		);
		expect(over?.[1]).toMatch(/^Fails the item at once/);
		expect(RESEND_POLICY.giveUp).toContain('over 60 s fails the item at once');
	});

	const help = (
		nodeProperties.find((p) => p.name === 'options')!.options as Array<{
			displayName: string;
			description?: string;
		}>
	).find((o) => o.displayName === LABELS.retries)!.description!;
	const oneLine = (text = '') => text.replace(/\s+/g, ' ');

	it("docs/reference.md's Re-sending says each rule in the policy's words", () => {
		const text = oneLine(section(read('docs/reference.md'), 'Re-sending'));
		for (const [rule, words] of Object.entries(RESEND_POLICY)) {
			expect(text, rule).toContain(words);
		}
	});

	it("the editor's help for Retries When Not Accepted says each rule but `never`, and names every kind re-sent", () => {
		for (const rule of ['what', 'after', 'giveUp', 'costs'] as const) {
			expect(help, rule).toContain(plain(RESEND_POLICY[rule]));
		}
		for (const { short } of RESENT) expect(help).toContain(short);
		expect(help).not.toMatch(/at most 60 s/);
	});

	it('no other page retells the backoff or when a turn-away costs a retry', () => {
		const told = (file: string) =>
			/doubling up to|costs one of Retries|costs a retry/.test(oneLine(read(file)));
		const pages = [
			'README.md',
			'CONTRIBUTING.md',
			...readdirSync(join(PACKAGE_DIR, 'docs'))
				.filter((name) => name.endsWith('.md'))
				.map((name) => `docs/${name}`),
		];
		expect(pages.filter(told).sort()).toEqual(['docs/behind-a-proxy.md', 'docs/reference.md']);
	});
});

describe('the policy does what each row says', () => {
	const fresh = { resent: 0, charged: 0 };

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
