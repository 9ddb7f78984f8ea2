import { describe, expect, it } from 'vitest';

import {
	answerSaid,
	isHtmlPage,
	serviceSaid,
} from '../../../../nodes/TriggerAutomation/answer/serviceSaid';

const answer = (body: string, headers: Record<string, string> = {}) => ({
	statusCode: 400,
	headers,
	body: Buffer.from(body),
});

describe("the service's message, quoted as plain text", () => {
	const said = (body: string, headers: Record<string, string> = {}) =>
		serviceSaid(answer(body, headers));

	it('from a JSON answer, its own message rather than the JSON text', () => {
		const body = JSON.stringify({ error: 'invalid_body', message: 'data.message must be "text".' });
		expect(said(body, { 'content-type': 'application/json' })).toBe(
			' The service said: data.message must be "text".',
		);
	});

	it.each([
		['message', { error: 'code', message: 'the message' }],
		['error.message', { error: { code: 7, message: 'the message' } }],
		['error_description', { error: 'code', error_description: 'the message' }],
		['detail', { title: 'Bad Request', detail: 'the message' }],
		['error, when it is text', { error: 'the message' }],
		['title', { title: 'the message', status: 400 }],
		['message, skipping an empty one', { message: ' ', error: 'the message' }],
	])('finds the message in %s', (_, json) => {
		expect(said(JSON.stringify(json))).toBe(' The service said: the message');
	});

	it('a body that is a JSON string is its own message, whatever the Content-Type', () => {
		expect(said('"the message"', { 'content-type': 'text/plain' })).toBe(
			' The service said: the message',
		);
	});

	it('JSON without a message, and text, are quoted as they came, trimmed and on one line', () => {
		expect(said('{"ok":false,"code":17}')).toBe(' The service said: {"ok":false,"code":17}');
		expect(said('  line one\r\n\tline two \n')).toBe(' The service said: line one line two');
	});

	it('quotes at most 500 characters, and nothing when the service said nothing', () => {
		const long = `${'é'.repeat(499)}😀😀`;
		expect(said(long)).toBe(` The service said: ${'é'.repeat(499)}😀…`);
		expect(said('   ')).toBe('');
	});

	it('writes markup in what the service said as look-alikes the editor shows as written', () => {
		expect(said('{"message":"signs \\"<t>.<body>\\" & `t`"}')).toBe(
			' The service said: signs "‹t›.‹body›" ＆ ˋtˋ',
		);
	});
});

describe("an HTML page (a proxy's error page) is told by its title, not quoted", () => {
	const page = '<!DOCTYPE html><html><head><title>503 Service <b>Unavailable</b></title>';

	it('is an HTML page by its Content-Type, or by how its body starts', () => {
		expect(isHtmlPage(answer('<p>x</p>', { 'content-type': 'text/html; charset=utf-8' }))).toBe(
			true,
		);
		expect(isHtmlPage(answer('  <html><body>x</body></html>'))).toBe(true);
		expect(isHtmlPage(answer('<p>x</p>', { 'content-type': 'text/plain' }))).toBe(false);
		expect(isHtmlPage(answer('{"message":"<html>"}'))).toBe(false);
	});

	it("says its title, as text, or that it was a page; anything else is the service's message", () => {
		expect(answerSaid(answer('<html><title>502 Bad Gateway</title>'))).toBe(
			' The answer was an HTML page titled “502 Bad Gateway”.',
		);
		expect(answerSaid(answer('<!DOCTYPE html><p>oops</p>'))).toBe(' The answer was an HTML page.');
		expect(answerSaid(answer(page))).toBe(' The answer was an HTML page.');
		expect(answerSaid(answer('{"message":"down"}'))).toBe(' The service said: down');
	});
});
